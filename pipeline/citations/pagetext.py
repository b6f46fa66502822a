"""The text a reader sees on a fetched page: HTML through BeautifulSoup, plain text, PDF through pypdf.

Only visible text counts as the page's words: a quote that stands only in a script, a style sheet, a
template, a comment, the head or an attribute value is not on the page. Block elements (paragraphs, table
cells, list items, headings...) are separated by line breaks so that words of neighbouring blocks never
run together; inline markup (`<b>`, `<code>`, `<a>`) is joined as the browser shows it.
"""

from __future__ import annotations

import io
import logging

from bs4 import BeautifulSoup, NavigableString, Tag
from pypdf import PdfReader
from pypdf.errors import PdfReadError

HIDDEN = frozenset({"script", "style", "template", "noscript", "head", "title", "svg", "iframe", "object"})
BLOCKS = frozenset(
    ["address", "article", "aside", "blockquote", "br", "caption", "dd", "details", "dialog", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "option", "p", "pre", "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul"]
)
HTML_TYPES = ("text/html", "application/xhtml+xml")


class Unsupported(Exception):
    """The page is of a kind whose text cannot be read (a sentence says which)."""


def visible_text(markup: str | bytes) -> str:
    """The visible text of an HTML document, each block on lines of its own.

    One walk through the document in reading order: a hidden element is skipped whole, a block element
    opens a line, and a line break follows the last node inside each block."""
    soup = BeautifulSoup(markup, "html.parser")
    parts: list[str] = []
    block_ends: set[int] = set()  # ids of the last node inside each block
    node = soup.contents[0] if soup.contents else None
    while node is not None:
        last = node
        if type(node) is NavigableString:  # subclasses are comments, CDATA, doctypes, processing instructions
            parts.append(node)
        elif isinstance(node, Tag):
            if node.name in HIDDEN or "hidden" in node.attrs:
                last = node._last_descendant()
            elif node.name in BLOCKS:
                parts.append("\n")
                block_ends.add(id(node._last_descendant()))
        if id(last) in block_ends:
            parts.append("\n")
        node = last.next_element
    return "".join(parts)


def pdf_text(body: bytes) -> str:
    """The text of every page of a PDF, pages separated by line breaks."""
    logging.getLogger("pypdf").setLevel(logging.ERROR)  # a damaged PDF is reported by us, in a sentence
    try:
        return "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(body)).pages)
    except (PdfReadError, ValueError, KeyError, TypeError) as exc:
        raise Unsupported(f"the PDF cannot be read ({exc})") from None


def media_type(content_type: str | None, body: bytes) -> str:
    """The media type the server names, or one sniffed from the body when it names none."""
    if content_type:
        return content_type.split(";")[0].strip().lower()
    if body.startswith(b"%PDF-"):
        return "application/pdf"
    return "text/html" if body.lstrip()[:1] == b"<" else "text/plain"


def page_text(body: bytes, content_type: str | None, encoding: str | None) -> str:
    """The page's visible text, by its media type; `Unsupported` for any other type."""
    kind = media_type(content_type, body)
    if kind in HTML_TYPES:
        return visible_text(body.decode(encoding, errors="replace") if encoding else body)
    if kind == "text/plain":
        return body.decode(encoding or "utf-8", errors="replace")
    if kind == "application/pdf":
        return pdf_text(body)
    raise Unsupported(f"the page is {kind}, not HTML, plain text or PDF")
