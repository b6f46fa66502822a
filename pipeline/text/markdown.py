"""Markdown from the sources to the one safe HTML subset every renderer uses (guide, cards, bank, site, LMS).

Source text is Markdown, never HTML: raw HTML typed into a source is escaped and shows as text; only
links to http, https and mailto addresses become links (`pipeline.text.links`: an allow list), any other
target stays text, and images are disabled, so a source can neither run script in a card, nor make the PDF
load a file, nor leave a link to the build machine's paths in an output. (`validate` reports such links
as errors at their line, see `pipeline.check.links`.)

Tables are GitHub's pipe tables (markdown-it's `table` rule): a header row, an alignment row, body rows.
A table gets the class `data` (so stylesheets tell it from their own layout tables), each header cell
`scope="col"`, and an alignment becomes a class (`align-left`, `align-center`,
`align-right`) rather than markdown-it's `style` attribute, since the site's CSP refuses inline styles and
QTI's XHTML has no `style`; every output's stylesheet that shows tables styles those classes.

Each text is rendered once per build, whichever outputs show it: renderings are kept in a cache keyed by
the text and the rendering options (block or inline). `pipeline.build` empties it at the start of each
build, so a long-running `serve` keeps only what the current sources say.
"""

from __future__ import annotations

import re
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore

from pipeline.text.links import allowed
from pipeline.text.plaintext import to_plain

CACHED = 1 << 17  # renderings kept: a 100x exam has about 30,000 distinct texts


def dialect() -> MarkdownIt:
    """The one Markdown dialect of the sources: CommonMark, raw HTML off, with pipe tables."""
    return MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable("table")


_ALIGN = re.compile(r"^text-align:(left|center|right)$")


def _table_cells(state: StateCore) -> None:
    """Tables marked `data`, header cells scoped to their column; alignment as a class, never a style."""
    for token in state.tokens:
        if token.type == "table_open":
            token.attrSet("class", "data")
        elif token.type in ("th_open", "td_open"):
            align = _ALIGN.match(str(token.attrs.pop("style", "")))
            if token.type == "th_open":
                token.attrSet("scope", "col")
            if align:
                token.attrSet("class", f"align-{align[1]}")


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    md = dialect()
    md.core.ruler.push("table_cells", _table_cells)
    md.disable("image")  # an image would be a fetch of an address the source chose
    md.validateLink = allowed
    return md


@lru_cache(maxsize=1)
def link_finder() -> MarkdownIt:
    """A parser that accepts every link target, for the check that reports the ones outputs would drop."""
    md = dialect()
    md.validateLink = lambda url: True
    return md


@lru_cache(maxsize=CACHED)
def _rendered(text: str, inline: bool) -> str:
    return _parser().renderInline(text) if inline else _parser().render(text)


def to_html(text: str) -> str:
    """Block Markdown (paragraphs, lists, fenced code, tables) to safe HTML."""
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
