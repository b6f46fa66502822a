"""Text for the LMS exports: Markdown to HTML with only http, https and mailto links, the feedback
(explanation, then the citations behind it), and each format's escaping (CDATA, GIFT, plain text).

The HTML is the safe subset of pipeline/text/markdown.py (raw HTML shows as text, no images), with a
stricter link check: an LMS shows the page inside its own site, so a relative or odd-scheme link
(ftp:, a course-relative path) is printed as text instead of becoming a link.
"""

from __future__ import annotations

import html
from functools import lru_cache

from markdown_it import MarkdownIt

from pipeline.text.plaintext import shorten, to_plain
from pipeline.view.model import QuestionView

ALLOWED_SCHEMES = ("http:", "https:", "mailto:")


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})  # as pipeline.text.markdown
    md.disable("image")
    md.validateLink = lambda url: url.strip().lower().startswith(ALLOWED_SCHEMES)
    return md


def block_html(markdown: str) -> str:
    """Block Markdown (paragraphs, lists, fenced code) to HTML, without the trailing newline."""
    return _parser().render(markdown).rstrip("\n")


def inline_html(markdown: str) -> str:
    """One paragraph of inline Markdown (an option, a matching prompt) to HTML without the <p>."""
    return _parser().renderInline(markdown)


def plain(markdown: str) -> str:
    """What a reader sees, markup removed: for places an LMS shows as plain text (matching answers, names)."""
    return to_plain(markdown)


def citations_html(q: QuestionView) -> str:
    """The citations behind a question as a list: the quote, a link to its page, and its check status."""
    if not q.citations:
        return ""
    items = []
    for c in q.citations:
        title = html.escape(c.title)
        link = f'<a href="{html.escape(c.url)}">{title}</a>' if c.url.lower().startswith(ALLOWED_SCHEMES) else title
        items.append(f"<li>{html.escape(c.speaker)} says: “{html.escape(c.quote)}” ({link}; {html.escape(c.status_text)})</li>")
    return "<p>Sources:</p>\n<ul>\n" + "\n".join(items) + "\n</ul>"


def feedback_html(q: QuestionView) -> str:
    """The general feedback: the model answer of an essay, the explanation, then the citations.

    A fill-in's answer is left out: the LMS shows its accepted answer itself, and the explanation of a
    generated fill-in is the whole sentence with the gap filled."""
    parts = []
    if q.type == "short_answer" and q.answer_md and not q.accepted_answers:
        parts.append("<p>Model answer:</p>\n" + block_html(q.answer_md))
    parts.append(block_html(q.explanation_md))
    parts.append(citations_html(q))
    return "\n".join(p for p in parts if p)


def cdata(text: str) -> str:
    """Text in a CDATA section; `]]>` inside it is split across two sections, as Moodle's exporter does."""
    return "<![CDATA[" + text.replace("]]>", "]]]]><![CDATA[>") + "]]>"


GIFT_SPECIAL = "\\~=#{}:"


def gift_escape(text: str) -> str:
    """GIFT text: `\\ ~ = # { } :` backslash-escaped and line breaks written as `\\n` (Moodle's repchar)."""
    for ch in GIFT_SPECIAL:
        text = text.replace(ch, "\\" + ch)
    return text.replace("\r\n", "\n").replace("\n", "\\n")


def item_title(q: QuestionView) -> str:
    """A question's name in a platform's question list: its id, "(drill)" when generated, its stem shortened."""
    return f"{q.id}{' (drill)' if q.generated else ''}: {shorten(plain(q.stem_md), 80)}"
