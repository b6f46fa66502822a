"""A large study guide printed chunk by chunk (pipeline/render/guide/chunks.py), every page number right.

weasyprint holds the whole document it lays out, and its memory grows with it: the 100x synthetic exam's
guide took 4.3 GiB. Here each chunk is laid out and written on its own, in reading order, and only its
PDF is kept:

1. the front matter (cover, contents, objectives map) with placeholder page numbers, only to learn how
   many pages it takes;
2. each chunk of the body, its first page numbered after the pages before it (`@page :first {
   counter-reset }`), a page reference to an earlier chunk written as the number itself (`data-page`,
   from the anchors of the pages laid out so far) and one within the chunk left to weasyprint's
   `target-counter`. References all point backwards (the glossary to the terms, the answer key to the
   objectives, a lab to where it is first described), so each is known or in its own chunk. What the
   PDF of one chunk cannot hold is kept aside: its links to anchors in other chunks and its headings
   for the outline;
3. the front matter again with every number known (when it came out longer or shorter than with the
   placeholders, everything is laid out again from there);
4. the chunks' PDFs joined with pypdf (which keeps each one's named destinations), the footers ("Page N of M",
   M known only now) written into each page's content stream with the font of one sample footer laid out
   once (guide/footers.py), the links between chunks added, and one outline built from every chunk's
   headings, nested across chunks.

The peak is one chunk's layout (CHUNK_ITEMS) and the PDFs written so far.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field

import weasyprint
from markupsafe import Markup
from pypdf import PdfReader, PdfWriter
from pypdf.generic import ArrayObject, DictionaryObject, Fit, FloatObject, NameObject, NumberObject, TextStringObject

from pipeline.render.guide import chunks, footers
from pipeline.render.guide.context import Guide
from pipeline.render.guide.fetcher import TemplateOnlyFetcher
from pipeline.render.guide.html import GUIDE_TEMPLATES, environment

PLACEHOLDER = "000"  # a page number of typical width, where the front matter's numbers are not known yet
PT = 0.75  # PDF points per CSS pixel
LAYOUTS = 3  # layouts of the body before the front matter's page count must have settled


@dataclass
class PageNumbers:
    """Where each anchor is: its page number in the whole guide (1 = the cover)."""

    of: dict[str, int] = field(default_factory=dict)
    placeholder: bool = False  # the front matter's first layout: every number a placeholder

    def attr(self, anchor: str) -> Markup:
        """` data-page="N"` for a target whose page is known, else nothing (weasyprint counts it)."""
        if self.placeholder:
            return Markup(f' data-page="{PLACEHOLDER}"')
        page = self.of.get(anchor)
        return Markup(f' data-page="{page}"') if page is not None else Markup("")


@dataclass
class WrittenChunk:
    """A chunk laid out and written: its PDF, and what that PDF cannot hold (pages counted from 0 in the chunk)."""

    pdf: bytes
    pages: int
    links: list[tuple[int, str, list[float]]]  # (page, anchor, rectangle in points) of links to anchors in other chunks
    headings: list[tuple[int, int, str, float, float]]  # (page, level, label, left, top in points) for the outline


def _html(guide: Guide, chunk: chunks.Chunk, first_page: int, numbers: PageNumbers, carry: bool) -> str:
    return environment().get_template("chunk.html.j2").render(
        guide=guide, segments=chunk.segments, first_page=first_page, carry=chunk.carry if carry else "", page_attr=numbers.attr,
        stylesheet="guide.css")


def _document(html: str) -> weasyprint.Document:
    return weasyprint.HTML(string=html, base_url=GUIDE_TEMPLATES.as_uri() + "/", url_fetcher=TemplateOnlyFetcher()).render()


def _lay_out(html: str, first_page: int, numbers: PageNumbers) -> WrittenChunk:
    """The chunk laid out and written; its anchors' page numbers added to `numbers`."""
    document = _document(html)
    here = {anchor for page in document.pages for anchor in page.anchors}
    links, headings = [], []
    for index, page in enumerate(document.pages):
        height = page.height * PT
        for anchor in page.anchors:
            numbers.of.setdefault(anchor, first_page + index)
        for kind, target, (x1, y1, x2, y2), _ in page.links:
            if kind == "internal" and target not in here:
                links.append((index, target, [x1 * PT, height - y1 * PT, x2 * PT, height - y2 * PT]))
        headings.extend((index, level, label, x * PT, height - y * PT) for level, label, (x, y), _ in page.bookmarks)
    return WrittenChunk(document.write_pdf(), len(document.pages), links, headings)


def _link(rectangle: list[float], anchor: str) -> DictionaryObject:
    return DictionaryObject({
        NameObject("/Type"): NameObject("/Annot"), NameObject("/Subtype"): NameObject("/Link"),
        NameObject("/Rect"): ArrayObject(FloatObject(round(v, 3)) for v in rectangle),
        NameObject("/BS"): DictionaryObject({NameObject("/W"): NumberObject(0)}),
        NameObject("/Dest"): TextStringObject(anchor),
    })


def _outline(writer: PdfWriter, headings: list[tuple[int, int, str, float, float]]) -> None:
    """One outline from every chunk's headings: each under the last heading of the level above it."""
    parents: dict[int, object] = {}
    for page, level, label, left, top in headings:
        parent = next((parents[above] for above in range(level - 1, 0, -1) if above in parents), None)
        parents[level] = writer.add_outline_item(title=label, page_number=page, parent=parent, fit=Fit.xyz(left, top, 0))
        for deeper in [lvl for lvl in parents if lvl > level]:
            del parents[deeper]


def _join(guide: Guide, written: list[WrittenChunk]) -> bytes:
    writer = PdfWriter()
    offsets, headings = [], []
    for chunk in written:
        offsets.append(len(writer.pages))
        reader = PdfReader(io.BytesIO(chunk.pdf))
        if not offsets[-1]:
            writer.add_metadata(reader.metadata)  # title, author, dates: the same in every chunk
        writer.append(reader, import_outline=False)
        headings.extend((offsets[-1] + page, *rest) for page, *rest in chunk.headings)
    footers.stamp(writer, footers.style(_document(footers.sample_html(guide.paper)).write_pdf()))
    for chunk, offset in zip(written, offsets, strict=True):
        for page, anchor, rectangle in chunk.links:
            writer.add_annotation(offset + page, _link(rectangle, anchor))
    _outline(writer, headings)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def write_pdf(guide: Guide, limit: int = chunks.CHUNK_ITEMS) -> bytes:
    """The whole guide as one PDF, laid out chunk by chunk."""
    front, body = chunks.front(guide), chunks.body(guide, limit)
    front_pages = _lay_out(_html(guide, front, 1, PageNumbers(placeholder=True), carry=False), 1, PageNumbers()).pages
    for _ in range(LAYOUTS):
        numbers, written, first = PageNumbers(), [], front_pages + 1
        for chunk in body:
            written.append(_lay_out(_html(guide, chunk, first, numbers, carry=True), first, numbers))
            first += written[-1].pages
        front_written = _lay_out(_html(guide, front, 1, numbers, carry=False), 1, numbers)
        if front_written.pages == front_pages:
            return _join(guide, [front_written, *written])
        front_pages = front_written.pages  # the real numbers took more or fewer lines: lay out again
    raise RuntimeError(f"the guide's front matter did not settle on a page count in {LAYOUTS} layouts")
