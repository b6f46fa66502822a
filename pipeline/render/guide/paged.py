"""A large study guide printed chunk by chunk (pipeline/render/guide/chunks.py), every page number right.

weasyprint lays out a whole document at once, and its memory grows with it: the 100x synthetic exam's
guide took 4.3 GiB. Here each chunk is laid out on its own, in reading order:

1. the front matter (cover, contents, objectives map) first, with placeholder page numbers, only to
   learn how many pages it takes;
2. each chunk of the body, its first page numbered after the pages before it (`@page :first {
   counter-reset }`), a page reference to an earlier chunk written as the number itself (`data-page`,
   known from the anchors of the pages laid out so far) and one within the chunk left to weasyprint's
   `target-counter`. References all point backwards (the glossary to the terms, the answer key to the
   objectives, a lab to where it is first described), so every one is known or in its own chunk;
3. the front matter again with every number known (when it came out longer or shorter than the
   placeholders made it, everything is laid out again from there);
4. the footers ("Page N of M"): M is known only now, so the footers are laid out as a document of
   their own, M empty pages, and each page's footer box is put in place of the one it was laid out
   with;
5. the pages of every chunk written as one PDF by weasyprint (`Document.copy`): links find their
   anchors in any chunk, and the outline nests headings across chunks as in one document.

The laid-out pages are kept until the end (a page's boxes are a fraction of what laying it out takes);
the peak is one chunk's layout on top of them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import weasyprint
from markupsafe import Markup

from pipeline.render.guide import chunks
from pipeline.render.guide.context import Guide
from pipeline.render.guide.fetcher import TemplateOnlyFetcher
from pipeline.render.guide.html import GUIDE_TEMPLATES, environment

PLACEHOLDER = "000"  # a page number of typical width, where the front matter's numbers are not known yet
FOOTER = "@bottom-center"
FOOTER_CSS = "@page { @top-left { content: none; } @top-right { content: none; } }"


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

    def add(self, document: weasyprint.Document, first: int) -> None:
        for number, page in enumerate(document.pages, start=first):
            for anchor in page.anchors:
                self.of.setdefault(anchor, number)


def _html(guide: Guide, chunk: chunks.Chunk, first_page: int, numbers: PageNumbers, carry: bool) -> str:
    return environment().get_template("chunk.html.j2").render(
        guide=guide, parts=chunk.parts, first_page=first_page, carry=chunk.carry if carry else "", page_attr=numbers.attr,
        stylesheet="guide.css")


def _layout(html: str) -> weasyprint.Document:
    return weasyprint.HTML(string=html, base_url=GUIDE_TEMPLATES.as_uri() + "/", url_fetcher=TemplateOnlyFetcher()).render()


def _body(guide: Guide, body: list[chunks.Chunk], first_page: int, numbers: PageNumbers) -> list[weasyprint.Document]:
    documents = []
    for chunk in body:
        document = _layout(_html(guide, chunk, first_page, numbers, carry=True))
        numbers.add(document, first_page)
        first_page += len(document.pages)
        documents.append(document)
    return documents


def _footers(guide: Guide, pages: int) -> list:
    """The footer box of each of `pages` pages, "Page N of pages", laid out with the guide's own style."""
    html = (f'<!DOCTYPE html><html><head><link rel="stylesheet" href="guide.css"><style>@page {{ size: {guide.paper}; }}'
            f'{FOOTER_CSS} div + div {{ break-before: page; }}</style></head><body>' + "<div></div>" * pages + "</body></html>")
    document = _layout(html)
    return [next(box for box in page._page_box.children if getattr(box, "at_keyword", None) == FOOTER) for page in document.pages]


def _put_footers(pages: list, footers: list) -> None:
    """Each page's footer box replaced by the one laid out with the guide's page count (see step 4)."""
    for page, footer in zip(pages, footers, strict=True):
        box = page._page_box
        box.children = [*(c for c in box.children if getattr(c, "at_keyword", None) != FOOTER), footer]


def layout(guide: Guide, limit: int = chunks.CHUNK_ITEMS, progress: Callable[[str], None] | None = None) -> weasyprint.Document:
    """The whole guide as one weasyprint document, laid out chunk by chunk."""
    front, body = chunks.front(guide), chunks.body(guide, limit)
    front_pages = len(_layout(_html(guide, front, 1, PageNumbers(placeholder=True), carry=False)).pages)
    while True:
        numbers = PageNumbers()
        documents = _body(guide, body, front_pages + 1, numbers)
        front_document = _layout(_html(guide, front, 1, numbers, carry=False))
        numbers.add(front_document, 1)
        if len(front_document.pages) == front_pages:
            break
        front_pages = len(front_document.pages)  # the real numbers took more or fewer lines: lay out again
    pages = [page for document in (front_document, *documents) for page in document.pages]
    _put_footers(pages, _footers(guide, len(pages)))
    return front_document.copy(pages)
