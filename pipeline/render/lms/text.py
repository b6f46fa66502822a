"""Text for the LMS exports: Markdown to HTML with only http, https and mailto links, the feedback
(explanation, then the citations behind it), and each format's escaping (CDATA, GIFT, plain text).

Formulas take each format's form (`math=`): `tex`, `$$...$$`, for Moodle XML and GIFT (Moodle's TeX and
MathJax filters typeset it), `mathml` for QTI 2.1 and Canvas (see pipeline/text/formulas.py).

Images take each format's address (`media=`, pipeline/text/images.py): `@@PLUGINFILE@@/<name>` beside a
base64 `<file>` in the same text (Moodle XML), `../media/<path>` in the QTI 2.1 package, Canvas's
`$IMS-CC-FILEBASE$/media/<path>`; GIFT cannot carry a file, so it leaves out a question that shows one.

The HTML is the one safe subset of pipeline/text/markdown.py (raw HTML shows as text, only checked images, links only
to absolute http(s) and mailto addresses: an LMS shows the page inside its own site, so a relative or
odd-scheme link, ftp: or a course-relative path, stays text).
"""

from __future__ import annotations

import html

from pipeline.shapes import registry
from pipeline.text import markdown
from pipeline.text.linebreaks import breaks_as
from pipeline.text.links import allowed
from pipeline.text.plaintext import shorten, to_plain
from pipeline.view.model import QuestionView


def block_html(text: str, math: str = "tex", media: str = "pluginfile") -> str:
    """Block Markdown (paragraphs, lists, fenced code, tables) to HTML, without the trailing newline."""
    return markdown.to_html(text, math=math, media=media).rstrip("\n")


def inline_html(text: str, math: str = "tex", media: str = "pluginfile") -> str:
    """One paragraph of inline Markdown (an option, a matching prompt) to HTML without the <p>."""
    return markdown.to_inline_html(text, math=math, media=media)


def citations_html(q: QuestionView) -> str:
    """The citations behind a question as a list: the quote, a link to its page, and its check status."""
    if not q.citations:
        return ""
    items = []
    for c in q.citations:
        title = html.escape(c.title)
        link = f'<a href="{html.escape(c.url)}">{title}</a>' if allowed(c.url) else title
        items.append(f"<li>{html.escape(c.speaker)} says: “{html.escape(c.quote)}” ({link}; {html.escape(c.status_text)})</li>")
    return "<p>Sources:</p>\n<ul>\n" + "\n".join(items) + "\n</ul>"


def feedback_html(q: QuestionView, math: str = "tex", media: str = "pluginfile") -> str:
    """The general feedback: the model answer of an essay, the explanation, then the citations.

    A fill-in's answer is left out: the LMS shows its accepted answer itself, and the explanation of a
    generated fill-in is the whole sentence with the gap filled."""
    parts = []
    essays = [p for p in q.parts if registry.of(p).self_graded(p) and p.model_answer_md]
    parts += ["<p>Model answer:</p>\n" + block_html(p.model_answer_md or "", math, media) for p in essays]
    parts.append(block_html(q.explanation_md, math, media))
    parts.append(citations_html(q))
    return "\n".join(p for p in parts if p)


def cdata(text: str) -> str:
    """Text in a CDATA section; `]]>` inside it is split across two sections, as Moodle's exporter does."""
    return "<![CDATA[" + text.replace("]]>", "]]]]><![CDATA[>") + "]]>"


GIFT_SPECIAL = "\\~=#{}:"


def gift_escape(text: str) -> str:
    """GIFT text: `\\ ~ = # { } :` backslash-escaped and every line break (CR, NEL, LS, PS too: any one
    ends a line for some reader) written as `\\n` (Moodle's repchar), so the text stays on its line."""
    for ch in GIFT_SPECIAL:
        text = text.replace(ch, "\\" + ch)
    return breaks_as(text, "\\n")


def gift_answer(html_text: str) -> str:
    """An answer's HTML for GIFT: escaped, and a leading `%` written `&#37;`, since `~%` or `=%` opens a
    weight (`~%50%text`) and a parser takes what follows for one; the HTML shows the same `%`."""
    return gift_escape("&#37;" + html_text[1:] if html_text.startswith("%") else html_text)


def item_title(q: QuestionView) -> str:
    """A question's name in a platform's question list: its id, "(drill)" when generated, its stem shortened."""
    return f"{q.id}{' (drill)' if q.generated else ''}: {shorten(to_plain(q.stem_md), 80)}"
