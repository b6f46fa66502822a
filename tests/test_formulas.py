"""Formulas: Pandoc's dollar rule (prices stay prose), what the renderer refuses (an error at its line,
nothing written), and each output's form of the same formula."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from pipeline.text import formulas
from pipeline.text.markdown import formulas_in, to_html, to_inline_html
from pipeline.text.plaintext import to_plain
from tests.conftest import TODAY

MATHML = "{http://www.w3.org/1998/Math/MathML}"


@pytest.mark.parametrize("text", ["costs $5 and $10 a month", "from $5 to $ 10", "a $ sign and $x $ apart", "price: \\$x\\$"])
def test_dollars_that_are_not_math_stay_prose(text):
    assert formulas_in(text) == []
    assert "<math" not in to_inline_html(text) and "$" in to_inline_html(text)


def test_the_dollar_rule_finds_inline_and_display_formulas():
    assert formulas_in("LoRA trains $r(d + k)$ numbers; costs $5.") == ["r(d + k)"]
    assert formulas_in("The sum:\n\n$$\n\\sum_i x_i\n$$\n") == ["\n\\sum_i x_i\n"]
    assert formulas_in("inline $$a = b$$ display") == ["a = b"]


def test_mathml_for_the_site_is_one_math_element_of_presentation_markup():
    html = to_inline_html("trains $r(d + k)$ numbers")
    math = ET.fromstring(re.search(r"<math.*</math>", html)[0])
    assert math.tag == f"{MATHML}math" and math.get("display") == "inline"
    assert [e.text for e in math.iter() if e.text] == ["r", "(", "d", "+", "k", ")"]
    block = to_html("$$\n\\frac{a}{b}\n$$\n")
    assert block.startswith('<div class="formula display"><math') and 'display="block"' in block and "<mfrac>" in block


def test_each_output_gets_its_own_form():
    assert to_inline_html("$a < b$", math="anki") == '<span class="formula">\\(a &lt; b\\)</span>'
    assert to_html("$$a$$", math="anki").startswith('<div class="formula display">\\[a\\]</div>')
    assert to_inline_html("$x^2$", math="tex") == '<span class="formula">$$x^2$$</span>'
    image = to_inline_html("$x^2$", math="svg")
    assert image.startswith('<span class="formula"><img class="formula-image" alt="x^2" style="width:') and "data:image/svg+xml;base64," in image
    assert to_plain("trains $r(d + k)$ numbers") == "trains r(d + k) numbers"


@pytest.mark.parametrize(("latex", "why"), [
    ("\\frac{a", "a '{' is never closed"),
    ("a}", "a '}' closes no '{'"),
    ("\\fract{a}{b}", "unknown command \\fract"),
    ("x^", "LaTeX the renderer cannot read"),
    ("\\href{javascript:alert(1)}{x}", "attribute 'href'"),
    ("\\style{color:red}{x}", "attribute 'style'"),
    ("\\text{<script>alert(1)</script>}", "<script>"),
    ("\\text{a < b}", "would read as markup"),
    ("x" * 2001, "at most 2000 characters"),
])
def test_the_renderer_refuses_what_it_cannot_typeset_or_must_not_show(latex, why):
    assert why in (formulas.problem(latex) or "")
    shown = formulas.render(latex, False, "mathml")
    assert shown.startswith('<code class="formula-source">') and "<script" not in shown and "href=" not in shown


@pytest.mark.parametrize("latex", ["r(d + k)", "\\frac{a}{b}", "\\{x\\}", "\\mathbb{R}^{d \\times k}", "\\sum_{i=1}^{n} x_i",
                                   "\\begin{pmatrix} a & b \\\\ c & d \\end{pmatrix}", "2 \\times 10^{9}\\ \\text{bytes}"])
def test_ordinary_math_passes(latex):
    assert formulas.problem(latex) is None


def test_the_svg_is_the_same_bytes_each_time():
    formulas.svg_image.cache_clear()
    first = formulas.svg_image("\\frac{r(d+k)}{d k}", True)
    formulas.svg_image.cache_clear()
    assert formulas.svg_image("\\frac{r(d+k)}{d k}", True) == first


def test_a_formula_the_renderer_refuses_is_an_error_at_its_line_and_nothing_is_built(run_cli, make_sources, tmp_path):
    sources = make_sources("valid", "bad_formula")
    result = run_cli("build", "--sources", str(sources), "--today", TODAY, "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert result.code == 1
    errors = [line for line in (result.out + result.err).splitlines() if line.endswith("[formula]")]
    places = [line.split(": error: ")[0] for line in errors]
    path = "sources/demo/bad_formula.yaml"
    assert places == [f"{path}:7:28", f"{path}:17:7", f"{path}:21:35", f"{path}:22:16"], result.err
    assert "formula $\\frac{r(d + k)$ cannot be typeset: a '{' is never closed" in errors[0]
    assert "unknown command \\rank" in errors[1] and "'href'" in errors[2] and "would read as markup" in errors[3]
    assert "$5" not in result.err and not (tmp_path / "out" / "demo").exists()
