"""The HTML that goes into Anki fields: every piece of source text is either escaped or rendered by
pipeline/text/markdown.py, so nothing a source says becomes markup in a card.

Names end in `_html` for what is ready to go into a field; their arguments are source text (Markdown or
plain), never HTML.
"""

from __future__ import annotations

import re
from html import escape

from pipeline.practice import term_forms
from pipeline.shapes import registry
from pipeline.text import cloze, markdown, word_forms
from pipeline.view.model import CitationView, ExampleView, QuestionView, SeeView

# Private-use characters: Markdown leaves them alone and no source types them.
_HOLE = "\ue000{}\ue001"
_HOLE_RE = re.compile("\ue000(\\d+)\ue001")


MATH = "anki"  # formulas as \(...\) and \[...\], which Anki's own MathJax typesets


MEDIA = "flat"  # images by their file name alone: a collection's media folder has no sub-folders


def inline_html(text: str) -> str:
    return markdown.to_inline_html(text.strip(), math=MATH, media=MEDIA)


def block_html(text: str) -> str:
    return markdown.to_html(text.strip(), math=MATH, media=MEDIA).strip()


def point_html(text: str) -> str:
    """A key point in a list: inline, unless it holds blocks of its own (a table, a second paragraph)."""
    return block_html(text) if "\n" in text.strip() else inline_html(text)


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


def see_html(see: SeeView | None) -> str:
    """A key point's cross-reference, on the back: "See NCA-GENM 6.2 Hyperparameter tuning"."""
    return f'<p class="see">See {escape(see.text)}</p>' if see else ""


_MENTION = "\ue002{}\ue003"
_MENTION_RE = re.compile("\ue002(\\d+)\ue003")


def definition_html(term: str, definition: str) -> str:
    """The definition with every mention of its term (the term, its acronym, its expansion) wrapped so the
    definition -> term card can show a blank in its place (`.masked .mention` in card.css) while the
    term -> definition card shows the words. The note type's fields are frozen, so both cards read this
    one field; the front that asks for the term never shows the term's words."""
    said: list[str] = []

    def hole(match: re.Match[str]) -> str:
        said.append(match[0])
        return _MENTION.format(len(said) - 1)

    html = block_html(mentions_pattern(term, definition).sub(hole, definition))
    return _MENTION_RE.sub(lambda m: _mention_html(inline_html(said[int(m[1])])), html)


def mentions_pattern(term: str, definition: str, *texts: str) -> re.Pattern[str]:
    """Every form of the term in its definition (and `texts`): its names (the term, acronym, expansion) and
    any word sharing a stem with them ("recomputing" for "Activation recomputation", "NVIDIA's" for
    "NVIDIA TAO"), so the card that asks for the term shows none of them (pipeline/text/word_forms.py)."""
    names = term_forms.forms(term, definition)
    forms = word_forms.answer_forms(term, *names)
    words = {w.casefold() for text in (definition, *texts) for w in word_forms.found(forms, text)}
    return term_forms.pattern(frozenset(names | words))


def _mention_html(said_html: str) -> str:
    return f'<span class="mention"><span class="blank">{term_forms.BLANK}</span><span class="said">{said_html}</span></span>'


def masked_context_html(term: str, definition: str, *parts: str) -> str:
    """The context line with the term's mentions wrapped like the definition's (see `definition_html`)."""
    text = " · ".join(parts)
    out, at = [], 0
    for match in mentions_pattern(term, definition, text).finditer(text):
        out += [escape(text[at : match.start()]), _mention_html(escape(match[0]))]
        at = match.end()
    return "".join(out) + escape(text[at:])


def report_html(url: str | None) -> str:
    """The line under a question card's explanation that reports a bad item (exam.yaml's `feedback:`); none without it."""
    return f'<p class="report"><a href="{escape(url)}">Report a problem with this question</a></p>' if url else ""


def context_html(*parts: str) -> str:
    return escape(" · ".join(parts))


def link_html(citation: CitationView) -> str:
    return f'<a href="{escape(citation.url)}">{escape(citation.title)}</a> ({escape(citation.speaker)})'


def status_html(citation: CitationView) -> str:
    """The quote's last check, as the guide and the site say it ("found on the page, 2026-11-20"); an
    archived quote's "archived copy of DATE" links to that copy."""
    classes, text = f"check check-{escape(citation.status.value)}", escape(citation.status_text)
    if citation.archive_url:
        return f'<a class="{classes}" href="{escape(citation.archive_url)}">{text}</a>'
    return f'<span class="{classes}">{text}</span>'


def sources_html(citations: tuple[CitationView, ...]) -> str:
    """The cited pages, each once in order of first citation, with the check of the quotes behind the card."""
    pages: dict[str, list[CitationView]] = {}
    for c in citations:
        pages.setdefault(c.url, []).append(c)
    items = [f"<li>{link_html(cs[0])}: {'; '.join(dict.fromkeys(status_html(c) for c in cs))}</li>" for cs in pages.values()]
    return "".join(items).join(("<ul>", "</ul>")) if items else ""


def quotes_html(citations: tuple[CitationView, ...]) -> str:
    """Each quote with its page and its check: the evidence shown on the back of a key point."""
    return "".join(
        f'<blockquote>{escape(c.quote)}</blockquote><div class="cite">{link_html(c)} · {status_html(c)}</div>' for c in citations
    )


def instruction(question: QuestionView) -> str:
    return question.prompt


def _lettered(items) -> str:
    return "".join(f"<li>{inline_html(i.text_md)}</li>" for i in items).join(('<ol type="A">', "</ol>"))


# Each shape names its writers (pipeline/shapes/registry.py): anki_front, what the front shows besides the
# stem, and anki_back, what the back's Answer field shows.


def options_html(question: QuestionView) -> str:
    """What the front shows besides the stem: lettered options (A, B, C... in display order), matching
    prompts beside lettered answers, or the items to order; nothing for a statement or a written answer."""
    return "".join(registry.writer(part, "anki_front")(part) for part in question.parts)


def answer_html(question: QuestionView) -> str:
    """The correct option(s) marked in place, True / False, the matches, the order or the number."""
    return "".join(registry.writer(part, "anki_back")(part) for part in question.parts)


def model_answer_html(question: QuestionView) -> str:
    return "".join(block_html(p.model_answer_md) for p in question.parts if registry.of(p).self_graded(p) and p.model_answer_md)


def code_html(text: str) -> str:
    """Code or printed output, escaped, for a <pre> in the card template (line breaks kept as they are)."""
    return escape(text)


def example_run_html(example: ExampleView) -> str:
    """"ran on 2026-11-30 with Python 3.11, torch 2.13.0 (CPU)", or what is wrong with it, marked."""
    flag = "" if example.reproduced else "<strong>Check:</strong> "
    return f"{flag}{escape(example.run_text)}"
