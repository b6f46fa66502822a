"""The HTML that goes into Anki fields: every piece of source text is either escaped or rendered by
pipeline/text/markdown.py, so nothing a source says becomes markup in a card.

Names end in `_html` for what is ready to go into a field; their arguments are source text (Markdown or
plain), never HTML.
"""

from __future__ import annotations

import re
from html import escape

from pipeline.text import cloze, markdown
from schema.models import Citation, Question

# Private-use characters: Markdown leaves them alone and no source types them.
_HOLE = "\ue000{}\ue001"
_HOLE_RE = re.compile("\ue000(\\d+)\ue001")


def inline_html(text: str) -> str:
    return markdown.to_inline_html(text.strip())


def block_html(text: str) -> str:
    return markdown.to_html(text.strip()).strip()


def cloze_html(text: str) -> str:
    """Key point Markdown to HTML with its `{{cN::phrase::hint}}` marks kept for Anki.

    Each mark is swapped for a placeholder before rendering and put back after, with its phrase and hint
    rendered on their own: so Markdown can never split a mark (an `*` or `_` inside a phrase pairing with
    one outside it), and a `<` in a phrase is escaped like any other text.
    """
    found = cloze.marks(text)
    html = _HOLE_RE.sub(lambda m: _mark_html(found[int(m[1])]), inline_html(_with_holes(text)))
    if [(m.number, m.answer) for m in cloze.marks(html)] != [(m.number, inline_html(m.answer)) for m in found]:
        raise ValueError(f"cloze marks did not survive rendering: {text!r} -> {html!r}")  # a bug here, not in the source
    return html


def _with_holes(text: str) -> str:
    """`text` with its n-th mark replaced by placeholder n."""
    counter = iter(range(len(text)))
    return cloze.CLOZE.sub(lambda _: _HOLE.format(next(counter)), text)


def _mark_html(mark: cloze.ClozeMark) -> str:
    hint = f"::{inline_html(mark.hint)}" if mark.hint else ""
    return f"{{{{c{mark.number}::{inline_html(mark.answer)}{hint}}}}}"


def context_html(*parts: str) -> str:
    return escape(" · ".join(parts))


def link_html(citation: Citation, publisher: str) -> str:
    return f'<a href="{escape(citation.url)}">{escape(citation.title)}</a> ({escape(citation.publisher or publisher)})'


def sources_html(citations: list[Citation], vendor: str) -> str:
    """A list of the cited pages, each once, in order of first citation."""
    seen = dict.fromkeys(c.url for c in citations)
    firsts = [next(c for c in citations if c.url == url) for url in seen]
    return "".join(f"<li>{link_html(c, vendor)}</li>" for c in firsts).join(("<ul>", "</ul>")) if firsts else ""


def quotes_html(citations: list[Citation], vendor: str) -> str:
    """Each quote with its page: the evidence shown on the back of a key point."""
    return "".join(
        f"<blockquote>{escape(c.quote)}</blockquote><div class=\"cite\">{link_html(c, vendor)}</div>" for c in citations
    )


INSTRUCTIONS = {
    "single": "Choose one.",
    "multiple": "Choose all that apply.",
    "true_false": "True or false?",
    "short_answer": "Answer in a few sentences, then compare with the model answer.",
}


def option_htmls(question: Question) -> list[str]:
    """Each option rendered once: both the options list and the answer show them."""
    return [inline_html(option) for option in question.options]


def options_html(options: list[str]) -> str:
    """Rendered options lettered A, B, C... (letters the answer refers to); empty for true/false and short answers."""
    return "".join(f"<li>{option}</li>" for option in options).join(('<ol type="A">', "</ol>")) if options else ""


def answer_html(question: Question, options: list[str]) -> str:
    """The correct option(s) with their letters, or True / False; empty for short answers (see model_answer_html)."""
    if question.type == "short_answer":
        return ""
    if question.type == "true_false":
        return "True" if question.answer is True else "False"
    correct = question.answer if isinstance(question.answer, list) else [question.answer]
    lines = [f"{chr(ord('A') + i)}. {html}" for i, (o, html) in enumerate(zip(question.options, options, strict=True)) if o in correct]
    return lines[0] if len(lines) == 1 else "".join(f"<li>{line}</li>" for line in lines).join(("<ul>", "</ul>"))


def model_answer_html(question: Question) -> str:
    return block_html(str(question.answer)) if question.type == "short_answer" else ""
