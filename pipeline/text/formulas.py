"""LaTeX formulas written in Markdown, `$...$` inline and `$$...$$` display, in the form each output reads.

The dollar rule is Pandoc's (mdit-py-plugins' dollarmath with `allow_space=False, allow_digits=False`):
an opening `$` has no space after it, a closing `$` no space before it and no digit right after it, so
"costs $5 and $10 a month" stays prose; `\\$` is always a dollar sign.

One parser reads a formula, latex2mathml (LaTeX to MathML), and its MathML is then held to an allow list:
latex2mathml passes `\\text{<b>}` through as markup, writes `\\href{...}` as an `href` attribute and keeps
an unknown command such as `\\fract` as an identifier, so `problem()` refuses a formula whose MathML holds
an element or attribute outside the list, an unknown command, or braces that do not balance (`validate`
reports it at its line, `pipeline.check.formula_check`). What passes is shown as:

- `mathml`: the site, the bank's HTML, QTI 2.1 and Canvas (Chromium and the platforms read MathML);
- `svg`: the study guide; weasyprint has no MathML, so ziamath typesets the same MathML into SVG paths
  (vector, with its own STIX Two Math font; no TeX installation), embedded as a `data:` image;
- `anki`: `\\(...\\)` and `\\[...\\]`, which Anki's own MathJax typesets;
- `tex`: `$$...$$`, which Moodle's TeX and MathJax filters typeset (Moodle XML and GIFT).
"""

from __future__ import annotations

import base64
import re
import xml.etree.ElementTree as ET
from functools import lru_cache
from html import escape

FLAVOURS = ("mathml", "svg", "anki", "tex")
MAX_LENGTH = 2000  # characters of LaTeX in one formula: a long derivation belongs in several
MATHML = "http://www.w3.org/1998/Math/MathML"
# MathML presentation markup latex2mathml writes for the math it knows; nothing that links, scripts or styles.
ELEMENTS = frozenset({"math", "mrow", "mi", "mn", "mo", "ms", "mtext", "mspace", "msub", "msup", "msubsup", "mfrac", "msqrt",
                      "mroot", "mstyle", "mover", "munder", "munderover", "mtable", "mtr", "mtd", "mlabeledtr", "mpadded",
                      "mphantom", "menclose", "mfenced"})
ATTRIBUTES = frozenset({"display", "mathvariant", "stretchy", "fence", "separator", "lspace", "rspace", "accent", "accentunder",
                        "movablelimits", "largeop", "symmetric", "minsize", "maxsize", "form", "columnalign", "columnspacing",
                        "rowspacing", "columnlines", "rowlines", "rowalign", "frame", "framespacing", "displaystyle",
                        "scriptlevel", "linethickness", "width", "height", "depth", "voffset", "notation", "mathsize",
                        "mathcolor", "mathbackground", "open", "close", "separators", "columnspan", "rowspan"})
_BRACE = re.compile(r"\\.|[{}]", re.DOTALL)  # an escaped character (\{ \} \\) is not a brace
SVG_SIZE = 20  # ziamath's font size; the guide scales the image to the text around it (em units)
# STIX Two's letters are smaller than DejaVu Serif's at one font size (its x-height is about 0.45 em, DejaVu's
# 0.52): drawn at the same em, a formula looked a size smaller than its sentence (seen in the guide's pages)
MATCH_TEXT = 1.18
# The data: address of every drawing made since the build started -> its SVG. The guide's URL fetcher
# serves these and no other data: address, so only the pipeline's own drawings reach the PDF.
DRAWINGS: dict[str, bytes] = {}


class FormulaError(ValueError):
    """A formula the renderer cannot typeset: the message says what to change."""


def problem(latex: str) -> str | None:
    """What makes `latex` impossible to typeset, or None when every output can show it."""
    try:
        mathml(latex, False)
    except FormulaError as error:
        return str(error)
    return None


@lru_cache(maxsize=1 << 14)
def mathml(latex: str, display: bool) -> str:
    """`latex` as one MathML <math> element (display="block" for a display formula), checked."""
    if len(latex) > MAX_LENGTH:
        raise FormulaError(f"a formula holds at most {MAX_LENGTH} characters, this one {len(latex)}")
    _balanced(latex)
    import latex2mathml.converter  # here, not at the top: half a second, paid only by a build with formulas

    try:
        markup = latex2mathml.converter.convert(latex, display="block" if display else "inline")
    except Exception as error:  # latex2mathml's own errors (MissingEndError, ...) all mean "not LaTeX it reads"
        raise FormulaError(f"LaTeX the renderer cannot read ({type(error).__name__})") from None
    _allowed(markup)
    # TeX's {,} is a comma with no space after it (8{,}192); latex2mathml writes a bare <mo>, which a
    # browser spaces as a separator ("8, 192"): say it takes no space
    return markup.replace("<mrow><mo>&#x0002C;</mo></mrow>", '<mrow><mo lspace="0" rspace="0">&#x0002C;</mo></mrow>')


def _balanced(latex: str) -> None:
    depth = 0
    for match in _BRACE.finditer(latex):
        depth += {"{": 1, "}": -1}.get(match[0], 0)
        if depth < 0:
            raise FormulaError("a '}' closes no '{'")
    if depth:
        raise FormulaError("a '{' is never closed")


def _allowed(markup: str) -> None:
    """Refuse MathML outside the allow list. The text starts with <math, so it can hold no DTD and hence
    no entity definitions: the standard library's parser is safe on it."""
    try:
        root = ET.fromstring(markup)
    except ET.ParseError:
        raise FormulaError("a '<', '>' or '&' inside \\text{} would read as markup; write \\lt, \\gt or \\& outside \\text{}") from None
    for element in root.iter():
        name = element.tag.removeprefix(f"{{{MATHML}}}")
        if name not in ELEMENTS:
            raise FormulaError(f"the formula would hold <{name[:40]}>, which no output may show")
        bad = sorted(set(element.attrib) - ATTRIBUTES)
        if bad:
            raise FormulaError(f"the formula would carry the attribute {bad[0][:40]!r} (\\href, \\style and \\class are not allowed)")
        if (element.text or "").startswith("\\") and len(element.text or "") > 1:
            raise FormulaError(f"unknown command {element.text[:40]}")


def render(latex: str, display: bool, flavour: str, block: bool = False) -> str:
    """The formula as HTML for one output (see the module's docstring), in a <div> when it stands as a
    block, else a <span> (a `$$...$$` inside a paragraph is displayed, yet stays inside its <p>); a formula
    `problem()` refuses shows as its source in <code>, since validate has already reported it."""
    if problem(latex) is not None:
        return f'<code class="formula-source">{escape(latex)}</code>'
    tag = "div" if block else "span"
    kind = "formula display" if display else "formula"
    if flavour == "mathml":
        body = mathml(latex, display)
    elif flavour == "svg":
        body = svg_image(latex, display)
    elif flavour == "anki":
        body = (r"\[" if display else r"\(") + escape(latex, quote=False) + (r"\]" if display else r"\)")
    elif flavour == "tex":
        body = "$$" + escape(latex, quote=False) + "$$"
    else:
        raise ValueError(f"unknown formula flavour {flavour!r}")
    return f'<{tag} class="{kind}">{body}</{tag}>'


_VIEWBOX = re.compile(r'viewBox="([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+)"')


@lru_cache(maxsize=1 << 12)
def svg_image(latex: str, display: bool) -> str:
    """An <img> of the typeset formula: SVG paths in a data: address, sized in em so it matches the text
    around it, its baseline on the line's (vertical-align), its LaTeX source as the alt text."""
    import ziamath  # here, not at the top, like latex2mathml

    ziamath.config.svg2 = False  # plain <path>s, no <symbol>/<use>: each formula's SVG stands alone as an image
    drawing = ziamath.Math(mathml(latex, display), size=SVG_SIZE).svg()
    box = _VIEWBOX.search(drawing)
    if box is None:
        raise FormulaError("the typeset formula has no size")  # ziamath always writes one: a bug if not
    em = SVG_SIZE / MATCH_TEXT
    top, width, height = float(box[2]), float(box[3]), float(box[4])
    style = f"width:{width / em:.3f}em;height:{height / em:.3f}em;vertical-align:{-(height + top) / em:.3f}em"
    address = "data:image/svg+xml;base64," + base64.b64encode(drawing.encode("utf-8")).decode("ascii")
    DRAWINGS[address] = drawing.encode("utf-8")
    return f'<img class="formula-image" alt="{escape(latex)}" style="{style}" src="{address}">'


def new_build() -> None:
    """Forget the drawings (and renderings) of the last build."""
    svg_image.cache_clear()
    DRAWINGS.clear()
