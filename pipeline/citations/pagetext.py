"""The text a reader sees on a fetched page: HTML through a streaming parser, plain text, PDF through pypdf.

Only visible text counts as the page's words: a quote that stands only in a script, a style sheet, a
template, a comment, the head or an attribute value is not on the page. Block elements (paragraphs, table
cells, list items, headings...) are separated by line breaks so that words of neighbouring blocks never
run together; inline markup (`<b>`, `<code>`, `<a>`) is joined as the browser shows it.

Pages are hostile input. The HTML goes through libxml2's parser (lxml) as a stream of events to a target
that keeps only a depth counter, never a tree: time and memory grow with the page's size, not with how
deeply it nests (a tree walk asking each block for its last descendant is quadratic in depth, a tree of a
20 MB page of tiny tags takes gigabytes, and Python's own html.parser is quadratic on runs of `<a<a<a`). Bytes are decoded with the charset the server declares, else
one sniffed from a byte-order mark or a `<meta charset>`, else UTF-8, and an unknown or bogus name falls
through to the next; undecodable bytes become U+FFFD. Control characters never leave this module.
"""

from __future__ import annotations

import codecs
import io
import logging
import re

from lxml import etree
from pypdf import PdfReader
from pypdf.errors import PdfReadError, PyPdfError

HIDDEN = frozenset({"script", "style", "template", "noscript", "head", "title", "svg", "iframe", "object"})
BLOCKS = frozenset(
    ["address", "article", "aside", "blockquote", "br", "caption", "dd", "details", "dialog", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "option", "p", "pre", "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul"]
)
HTML_TYPES = ("text/html", "application/xhtml+xml")
MAX_PDF_PAGES = 500  # a citation is one document; past this many pages the rest is not read
_CONTROLS = {c: " " for c in [*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), *range(0x7F, 0xA0)]}
_META_CHARSET = re.compile(rb"""<meta[^>]{0,500}?charset\s*=\s*["']?\s*([A-Za-z0-9._:-]{1,40})""", re.IGNORECASE)
_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


class Unsupported(Exception):
    """The page is of a kind whose text cannot be read (a sentence says which)."""


class _Visible:
    """An lxml parser target collecting the visible text: a depth counter and the depth where hiding began.

    libxml2's HTML parser closes elements the page leaves open, so starts and ends always pair up."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.depth = 0
        self.hidden_at: int | None = None  # depth of the hidden element being skipped

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        self.depth += 1
        if self.hidden_at is None:
            if tag in HIDDEN or "hidden" in attrib:
                self.hidden_at = self.depth
            elif tag in BLOCKS:
                self.parts.append("\n")

    def end(self, tag: str) -> None:
        if self.hidden_at is None:
            if tag in BLOCKS:
                self.parts.append("\n")
        elif self.depth <= self.hidden_at:
            self.hidden_at = None
        self.depth -= 1

    def data(self, data: str) -> None:
        if self.hidden_at is None:
            self.parts.append(data)

    def close(self) -> str:
        return "".join(self.parts)


def visible_text(markup: str | bytes) -> str:
    """The visible text of an HTML document, each block on lines of its own."""
    text = markup if isinstance(markup, str) else decode_html(markup, None)
    parser = etree.HTMLParser(target=_Visible(), huge_tree=True, no_network=True, remove_comments=True, remove_pis=True)
    try:
        parser.feed(text or " ")
        return without_controls(parser.close())
    except etree.LxmlError as exc:  # libxml2 recovers from nearly anything; say so if it ever does not
        raise Unsupported(f"the HTML cannot be read ({exc})") from None


def without_controls(text: str) -> str:
    """Control characters (but tab and line breaks) as spaces: they must never reach a report or an output."""
    return text.translate(_CONTROLS)


def _text_codec(name: str | None) -> str | None:
    """The codec for a charset name, or None when the name is unknown or not a text encoding (e.g. 'zlib')."""
    try:
        info = codecs.lookup(name) if name else None
    except (LookupError, ValueError):
        return None
    return info.name if info is not None and getattr(info, "_is_text_encoding", True) else None


def _sniffed(body: bytes, html: bool) -> str | None:
    for bom, name in _BOMS:
        if body.startswith(bom):
            return name
    found = _META_CHARSET.search(body[:4096]) if html else None
    return _text_codec(found[1].decode("ascii")) if found else None


def decode(body: bytes, declared: str | None, html: bool = False) -> str:
    """Declared charset, else sniffed, else UTF-8; undecodable bytes become U+FFFD, never an exception."""
    codec = _text_codec(declared) or _sniffed(body, html) or "utf-8"
    try:
        return body.decode(codec, errors="replace")
    except (LookupError, ValueError):  # a codec that fails on replace (stateful oddities)
        return body.decode("utf-8", errors="replace")


def decode_html(body: bytes, declared: str | None) -> str:
    return decode(body, declared, html=True)


def pdf_text(body: bytes) -> str:
    """The text of the PDF's first MAX_PDF_PAGES pages, pages separated by line breaks."""
    logging.getLogger("pypdf").setLevel(logging.ERROR)  # a damaged PDF is reported by us, in a sentence
    try:
        pages = PdfReader(io.BytesIO(body)).pages
        return without_controls("\n".join(pages[n].extract_text() or "" for n in range(min(len(pages), MAX_PDF_PAGES))))
    except (PdfReadError, PyPdfError, ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError, ZeroDivisionError) as exc:
        raise Unsupported(f"the PDF cannot be read ({type(exc).__name__})") from None


def _binary(body: bytes) -> bool:
    """NUL bytes near the start, outside UTF-16, mean a binary file whatever the server calls it."""
    head = body[:4096]
    return b"\0" in head and not head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))


def media_type(content_type: str | None, body: bytes) -> str:
    """The media type the server names, or one sniffed from the body when it names none."""
    if content_type:
        return content_type.split(";")[0].strip().lower()
    if body.startswith(b"%PDF-"):
        return "application/pdf"
    if _binary(body):
        return "application/octet-stream"
    return "text/html" if body.lstrip()[:1] == b"<" else "text/plain"


def page_text(body: bytes, content_type: str | None, encoding: str | None) -> str:
    """The page's visible text, by its media type; `Unsupported` for any other type or a binary body."""
    kind = media_type(content_type, body)
    wide = (_text_codec(encoding) or "").startswith(("utf-16", "utf-32"))
    if kind in (*HTML_TYPES, "text/plain") and _binary(body) and not wide:
        raise Unsupported(f"the page is called {kind} but holds binary data")
    if kind in HTML_TYPES:
        return visible_text(decode_html(body, encoding))
    if kind == "text/plain":
        return without_controls(decode(body, encoding))
    if kind == "application/pdf":
        return pdf_text(body)
    raise Unsupported(f"the page is {kind}, not HTML, plain text or PDF")
