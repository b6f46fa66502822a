"""Markdown from the sources to the one safe HTML subset every renderer uses (guide, cards, bank, site, LMS).

Source text is Markdown, never HTML: raw HTML typed into a source is escaped and shows as text; only
links to http, https and mailto addresses become links (`pipeline.text.links`: an allow list), any other
target stays text, and an image is shown only when the loader checked its file and rewrote its address to
`media:` (`pipeline.text.images`), so a source can neither run script in a card, nor make the PDF load a
file, nor leave a link to the build machine's paths in an output. (`validate` reports such links and images
as errors at their line, see `pipeline.check.link_check` and `pipeline.load.media`.) Each output names its copy
of an image its own way (`media=`: `relative`, `flat`, `pluginfile`), a part of the cache key like `math=`.

Tables are GitHub's pipe tables (markdown-it's `table` rule): a header row, an alignment row, body rows.
A table gets the class `data` (so stylesheets tell it from their own layout tables), each header cell
`scope="col"`, and an alignment becomes a class (`align-left`, `align-center`,
`align-right`) rather than markdown-it's `style` attribute, since the site's CSP refuses inline styles and
QTI's XHTML has no `style`; every output's stylesheet that shows tables styles those classes.

Formulas are `$...$` and `$$...$$` under Pandoc's dollar rule (see `pipeline.text.formulas`, which also
typesets them): each output asks for its own form of them (`math=`: MathML, SVG images, Anki's or Moodle's
TeX delimiters), so there is one parser per form, and the cache keys each rendering by its form too.

Each text is rendered once per build, whichever outputs show it: renderings are kept in a cache keyed by
the text and the rendering options (block or inline). `pipeline.build` empties it at the start of each
build, so a long-running `serve` keeps only what the current sources say.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache, partial

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from mdit_py_plugins.dollarmath import dollarmath_plugin

from pipeline.text import formulas, images
from pipeline.text.links import allowed
from pipeline.text.plaintext import to_plain

CACHED = 1 << 17  # renderings kept: a 100x exam has about 30,000 distinct texts


def dialect() -> MarkdownIt:
    """The one Markdown dialect of the sources: CommonMark, raw HTML off, with pipe tables and formulas."""
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable("table")
    # Pandoc's rule: no space inside the dollars, no digit after the closing one ("$5 and $10" is prose)
    md.use(dollarmath_plugin, allow_space=False, allow_digits=False, allow_labels=False, double_inline=True)
    return md


_MATH_TOKENS = {"math_inline": False, "math_inline_double": True, "math_block": True}


def _math_rules(md: MarkdownIt, flavour: str) -> None:
    """Render each formula token in `flavour` (pipeline.text.formulas.FLAVOURS)."""
    for name, display in _MATH_TOKENS.items():
        def rule(self, tokens, idx, options, env, display=display):
            block = tokens[idx].block
            html = formulas.render(tokens[idx].content.strip(), display, flavour, block)
            return html + "\n" if block else html
        md.add_render_rule(name, rule)


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


@lru_cache(maxsize=len(formulas.FLAVOURS) * len(images.MEDIA))
def _parser(math: str, media: str) -> MarkdownIt:
    md = dialect()
    md.core.ruler.push("table_cells", _table_cells)
    md.core.ruler.push("figures", partial(images.figures, tag="div" if media in images.XML else "figure"))
    _math_rules(md, math)
    md.add_render_rule("image", images.render_image(media))  # only the loader's media: addresses become images
    md.validateLink = _allowed_or_media
    return md


def _allowed_or_media(url: str) -> bool:
    """Links to allowed addresses; `media:` survives too, for the images the loader rewrote (a link written
    to `media:` is an error in `validate`, pipeline.check.link_check, so none reaches a build)."""
    return allowed(url) or url.startswith(images.SCHEME)


@lru_cache(maxsize=1)
def link_finder() -> MarkdownIt:
    """A parser that accepts every link target, for the check that reports the ones outputs would drop."""
    md = dialect()
    md.validateLink = lambda url: True
    return md


@lru_cache(maxsize=CACHED)
def _rendered(text: str, inline: bool, math: str, media: str) -> str:
    return _parser(math, media).renderInline(text) if inline else _parser(math, media).render(text)


def to_html(text: str, math: str = "mathml", media: str = "relative") -> str:
    """Block Markdown (paragraphs, lists, fenced code, tables, formulas, figures) to safe HTML, formulas in
    the form `math` names (pipeline.text.formulas), images named as `media` says (pipeline.text.images)."""
    return _rendered(text, False, math, media)


def to_inline_html(text: str, math: str = "mathml", media: str = "relative") -> str:
    """One paragraph of inline Markdown (emphasis, code spans, links, formulas, images) to safe HTML, without the <p>."""
    return _rendered(text, True, math, media)


def renderings() -> int:
    """How many texts were rendered since the cache was last emptied (each text once per set of options)."""
    return _rendered.cache_info().misses


def new_build() -> None:
    """Forget every rendering (and every plain-text form): called when a build starts."""
    _rendered.cache_clear()
    to_plain.cache_clear()
    formulas.new_build()


def formulas_in(text: str) -> list[str]:
    """The LaTeX of every formula written in `text`, in order, as the dollar rule finds them."""
    found = []
    for token in link_finder().parse(text):
        for t in [token, *(token.children or [])]:
            if t.type in _MATH_TOKENS:
                found.append(t.content)
    return found


def link_targets(text: str) -> list[str]:
    """Every link target written in `text` (inline links, reference links, autolinks), as written; images are
    the loader's to check (pipeline.load.media)."""
    found = []
    for token in link_finder().parse(text):
        for child in token.children or []:
            if child.type == "link_open":
                found.append(str(child.attrGet("href") or ""))
    return found


@dataclass(frozen=True)
class ImageToken:
    src: str  # as markdown-it normalised it (percent-encoded)
    alt: str  # its plain text
    title: str
    alone: bool  # the only thing in its paragraph: a figure


def image_tokens(text: str) -> list[ImageToken]:
    """Every image written in `text`, in order (code spans and blocks hold none)."""
    found = []
    tokens = link_finder().parse(text)
    for i, token in enumerate(tokens):
        children = token.children or []
        images = [c for c in children if c.type == "image"]
        shown = [c for c in children if c.type != "softbreak" and not (c.type == "text" and not c.content.strip())]
        alone = len(shown) == 1 and bool(images) and i > 0 and tokens[i - 1].type == "paragraph_open"
        for image in images:
            alt = "".join(c.content for c in image.children or [] if c.type in ("text", "code_inline"))
            found.append(ImageToken(str(image.attrGet("src") or ""), alt, str(image.attrGet("title") or ""), alone))
    return found
