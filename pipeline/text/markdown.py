"""Markdown from the sources to the one safe HTML subset every renderer uses (guide, cards, bank).

Source text is Markdown, never HTML: raw HTML typed into a source is escaped and shows as text, links
with script or file addresses are refused by markdown-it's link check, and images are disabled, so a
source can neither run script in a card nor make the PDF load a file.
"""

from __future__ import annotations

from functools import lru_cache

from markdown_it import MarkdownIt


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.disable("image")  # an image would be a fetch of an address the source chose
    return md


def to_html(text: str) -> str:
    """Block Markdown (paragraphs, lists, fenced code) to safe HTML."""
    return _parser().render(text)


def to_inline_html(text: str) -> str:
    """One paragraph of inline Markdown (emphasis, code spans, links) to safe HTML, without the <p>."""
    return _parser().renderInline(text)
