"""Markdown from the sources to the one safe HTML subset every renderer uses (guide, cards, bank, site, LMS).

Source text is Markdown, never HTML: raw HTML typed into a source is escaped and shows as text; only
links to http, https and mailto addresses become links (`pipeline.text.links`: an allow list), any other
target stays text, and images are disabled, so a source can neither run script in a card, nor make the PDF
load a file, nor leave a link to the build machine's paths in an output. (`validate` reports such links
as errors at their line, see `pipeline.check.links`.)

Each text is rendered once per build, whichever outputs show it: renderings are kept in a cache keyed by
the text and the rendering options (block or inline). `pipeline.build` empties it at the start of each
build, so a long-running `serve` keeps only what the current sources say.
"""

from __future__ import annotations

from functools import lru_cache

from markdown_it import MarkdownIt

from pipeline.text.links import allowed
from pipeline.text.plaintext import to_plain

CACHED = 1 << 17  # renderings kept: a 100x exam has about 30,000 distinct texts


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.disable("image")  # an image would be a fetch of an address the source chose
    md.validateLink = allowed
    return md


@lru_cache(maxsize=1)
def link_finder() -> MarkdownIt:
    """A parser that accepts every link target, for the check that reports the ones outputs would drop."""
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.validateLink = lambda url: True
    return md


@lru_cache(maxsize=CACHED)
def _rendered(text: str, inline: bool) -> str:
    return _parser().renderInline(text) if inline else _parser().render(text)


def to_html(text: str) -> str:
    """Block Markdown (paragraphs, lists, fenced code) to safe HTML."""
    return _rendered(text, False)


def to_inline_html(text: str) -> str:
    """One paragraph of inline Markdown (emphasis, code spans, links) to safe HTML, without the <p>."""
    return _rendered(text, True)


def renderings() -> int:
    """How many texts were rendered since the cache was last emptied (each text once per set of options)."""
    return _rendered.cache_info().misses


def new_build() -> None:
    """Forget every rendering (and every plain-text form): called when a build starts."""
    _rendered.cache_clear()
    to_plain.cache_clear()


def link_targets(text: str) -> list[str]:
    """Every link target written in `text` (inline links, reference links, autolinks, images), as written."""
    found = []
    for token in link_finder().parse(text):
        for child in token.children or []:
            if child.type in ("link_open", "image"):
                found.append(str(child.attrGet("href") or child.attrGet("src") or ""))
    return found
