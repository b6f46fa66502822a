"""Tables and formulas written in the sources reach every output as what they are, and prose with dollar
signs stays prose; each output read back with its own reader: pypdf for the guide, BeautifulSoup for the
site and the bank's HTML, the real Anki backend for the deck, ElementTree for Moodle XML, QTI 2.1 and
Canvas, the text of GIFT.

The fixture exam is tests/fixtures/objectives/rich_text.yaml: tables in a key point, a term's definition,
a stem and an explanation; inline and display formulas in key points, a definition, a stem, options and
an explanation; "costs $5 and $10 a month" in a key point and an explanation."""

from __future__ import annotations

import base64
import json
import re
import xml.etree.ElementTree as ET
import zipfile

import pytest
from anki.collection import Collection
from bs4 import BeautifulSoup
from pypdf import PdfReader

from tests.kit.anki import import_package
from tests.kit.lms import build_fixture
from tests.kit.studysite import axe_serious, guarded_context, page_of

FORMATS = ["Format", "Bits", "Exponent", "Mantissa", "Where Tensor Cores take it"]
FORMAT_ROWS = [["FP32", "32", "8", "23", "accumulation of products in mixed-precision matrix multiplication"],
               ["BF16", "16", "8", "7", "training inputs, where the exponent range of FP32 matters more than precision"],
               ["FP16", "16", "5", "10", "training inputs with loss scaling, and inference"]]
STEM_ROWS = [["Format", "Range"], ["INT8", "-128 to 127"], ["FP8", "wider"]]
PROSE = "costs $5 and $10 a month"
QTI = "{http://www.imsglobal.org/xsd/imsqti_v2p1}"
MATHML = "{http://www.w3.org/1998/Math/MathML}"
RAW_TEX = re.compile(r"\\frac|\$\\|\$r\(|\$\$|\\times")  # LaTeX a reader should never see typed out


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return build_fixture(tmp_path_factory.mktemp("rich"), ("valid", "rich_text"))


def rows(table) -> list[list[str]]:
    """A parsed table's cells row by row, header row first."""
    return [[cell.get_text(" ", strip=True) for cell in tr.find_all(["th", "td"])] for tr in table.find_all("tr")]


def tables(markup: str) -> list:
    return BeautifulSoup(markup, "html.parser").find_all("table")


def flat(text: str) -> str:
    return " ".join(text.split())


def test_a_pipe_table_is_a_table_with_header_cells_and_alignment_classes():
    from pipeline.text.markdown import to_html
    from pipeline.text.plaintext import to_plain

    html = to_html("| a | b |\n|:--|--:|\n| `x\\|y` | 2 |")
    [table] = tables(html)
    assert table.get("class") == ["data"] and [th.get("scope") for th in table.find_all("th")] == ["col", "col"]
    assert rows(table) == [["a", "b"], ["x|y", "2"]]
    assert [td.get("class") for td in table.find_all("td")] == [["align-left"], ["align-right"]]
    assert "style=" not in html  # the site's CSP refuses inline styles; QTI has no style attribute
    assert to_plain("| a | b |\n|---|---|\n| 1 | 2 |") == "a b 1 2"


def test_the_guide_prints_each_table_in_order_and_no_pipes(built):
    pages = [flat(page.extract_text()) for page in PdfReader(built.out / "study-guide.pdf").pages]
    text = " ".join(pages)
    for table in ([FORMATS, *FORMAT_ROWS], STEM_ROWS, [["Format", "Mantissa"], ["TF32", "10"]],
                  [["Format", "Exponent bits"], ["BF16", "8"], ["FP16", "5"]]):
        assert " ".join(" ".join(row) for row in table) in text, table
    assert "|" not in text and "---" not in text
    assert PROSE in text and "a licence costs $5 and $10 a month" in text
    assert not RAW_TEX.search(text), RAW_TEX.search(text)
    assert "LoRA trains numbers for a weight instead of all of them" in text  # the formulas are drawings, not text


def test_the_guide_draws_formulas_as_vector_images_on_their_line(built):
    from pipeline.render.guide.html import markdown

    html = str(markdown("trains $r(d + k)$ numbers"))
    image = BeautifulSoup(html, "html.parser").find("img", class_="formula-image")
    assert image["alt"] == "r(d + k)" and image["src"].startswith("data:image/svg+xml;base64,")
    svg = base64.b64decode(image["src"].split(",", 1)[1]).decode()
    assert svg.startswith("<svg") and "<path" in svg and "<script" not in svg and "<text" not in svg
    assert re.match(r"width:[\d.]+em;height:[\d.]+em;vertical-align:-[\d.]+em$", image["style"])


def test_the_site_shows_tables_with_header_cells_that_scroll_on_their_own(built):
    page = BeautifulSoup((built.out / "site" / "objective-1-2.html").read_text(encoding="utf-8"), "html.parser")
    found = [rows(t) for t in page.find_all("table", class_="data")]
    assert [FORMATS, *FORMAT_ROWS] in found and STEM_ROWS in found and [["Format", "Mantissa"], ["TF32", "10"]] in found
    assert all(t.get("tabindex") == "0" and t.find("th") for t in page.find_all("table", class_="data"))
    glossary = BeautifulSoup((built.out / "site" / "glossary.html").read_text(encoding="utf-8"), "html.parser")
    assert [["Format", "Mantissa"], ["TF32", "10"]] in [rows(t) for t in glossary.find_all("table")]
    css = (built.out / "site" / "assets" / "site.css").read_text(encoding="utf-8")
    assert re.search(r"table\.data \{[^}]*overflow-x: auto", css)
    assert PROSE in page.get_text(" ")
    maths = page.find_all("math")
    assert len(maths) >= 6 and not RAW_TEX.search(page.get_text(" "))
    assert {m.get("display") for m in maths} == {"inline", "block"}
    assert "".join(m.get_text() for m in maths[0].find_all(["mi", "mo", "mn"])).replace(" ", "") == "r(d+k)"


def test_the_bank_holds_the_source_and_the_table(built):
    bank = json.loads((built.out / "bank.json").read_text(encoding="utf-8"))
    q = next(q for q in bank["questions"] if q["id"] == "1.2-q1")
    assert "| INT8" in q["stem"] and [rows(t) for t in tables(q["stem_html"])] == [STEM_ROWS]
    assert rows(tables(q["explanation_html"])[0]) == [["Format", "Exponent bits"], ["BF16", "8"], ["FP16", "5"]]
    lora = next(q for q in bank["questions"] if q["id"] == "1.2-q2")
    assert "$4096 \\times 4096$" in lora["stem"] and lora["stem_html"].count("<math") == 2  # the source and its rendering
    assert [o["text"] for o in lora["parts"][0]["options"]] != [] and all("<math" in o["text_html"] for o in lora["parts"][0]["options"])
    assert "a licence costs $5 and $10 a month" in lora["explanation_html"]


def test_the_deck_in_real_anki_has_tables_in_its_fields(built, tmp_path):
    col = Collection(str(tmp_path / "learner.anki2"))
    try:
        import_package(col, built.out / "deck.apkg")
        question = col.get_note(col.find_notes('"Ref:1.2-q1"')[0])
        assert [rows(t) for t in tables(question["Stem"])] == [STEM_ROWS]
        term = col.get_note(col.find_notes('"Ref:Mantissa"')[0])
        definition = BeautifulSoup(term["Definition"], "html.parser")
        for blank in definition.select(".mention .blank"):  # the definition -> term card's blank for the term's name
            blank.decompose()
        assert [rows(t) for t in definition.find_all("table")] == [[["Format", "Mantissa"], ["TF32", "10"]]]
        check = [col.get_note(n) for n in col.find_notes("Ref:1.2-check-yourself*")]
        card = col.get_card(col.find_cards('"Ref:1.2-q1"')[0])
        assert "<table" in card.question() and "table.data" in card.question()  # the note type's CSS styles it
        assert check == [] or all("| FP32" not in n["Answer"] for n in check)
        lora = col.get_note(col.find_notes('"Ref:1.2-q2"')[0])
        assert "\\(4096 \\times 4096\\)" in lora["Stem"] and "\\(\\frac{1}{256}\\)" in lora["Options"]
        assert '<div class="formula display">\\[' not in lora["Explanation"] and "\\[r(d + k) = 65536\\]" in lora["Explanation"]
        assert "costs $5 and $10 a month" in lora["Explanation"]
    finally:
        col.close()


def test_moodle_qti_and_canvas_carry_the_table_as_html(built):
    moodle = ET.parse(built.out / "moodle.xml").getroot()
    [q] = [q for q in moodle.iter("question") if (q.findtext("name/text") or "").startswith("1.2-q1")]
    assert [rows(t) for t in tables(q.findtext("questiontext/text"))] == [STEM_ROWS]

    with zipfile.ZipFile(built.out / "qti21.zip") as archive:
        item = ET.fromstring(archive.read("items/q_1.2-q1.xml"))
    [table] = item.find(f"{QTI}itemBody").iter(f"{QTI}table")
    cells = [[c.text for c in tr if c.tag in (f"{QTI}th", f"{QTI}td")] for tr in table.iter(f"{QTI}tr")]
    assert cells == STEM_ROWS and all(th.get("scope") == "col" for th in table.iter(f"{QTI}th"))

    with zipfile.ZipFile(built.out / "canvas-qti.zip") as archive:
        quiz = ET.fromstring(archive.read("quiz_demo/quiz_demo.xml"))
    stems = [m.text or "" for m in quiz.iter("{http://www.imsglobal.org/xsd/ims_qtiasiv1p2}mattext")]
    assert [STEM_ROWS] in [[rows(t) for t in tables(s)] for s in stems]

    [lora] = [q for q in moodle.iter("question") if (q.findtext("name/text") or "").startswith("1.2-q2")]
    assert "$$4096 \\times 4096$$" in lora.findtext("questiontext/text") and "<math" not in ET.tostring(moodle, encoding="unicode")
    assert "costs $5 and $10 a month" in lora.findtext("generalfeedback/text")
    with zipfile.ZipFile(built.out / "qti21.zip") as archive:
        lora_item = ET.fromstring(archive.read("items/q_1.2-q2.xml"))
    maths = list(lora_item.iter(f"{MATHML}math"))
    assert len(maths) >= 5 and {m.get("display") for m in maths} == {"inline", "block"}
    assert not RAW_TEX.search(" ".join(lora_item.itertext()))
    assert any("<math" in s and "4096" in s for s in stems)

    gift = (built.out / "questions.gift").read_text(encoding="utf-8")
    assert "$$4096 \\\\times 4096$$" in gift and "$$\\\\frac\\{1\\}\\{256\\}$$" in gift
    assert '<table class\\="data">' in gift and "<th scope\\=\"col\">INT8" not in gift and "INT8</td>" in gift


def test_on_a_phone_a_wide_table_scrolls_inside_its_box_and_the_page_does_not(browser, built):
    site = (built.out / "site").as_uri() + "/"
    with guarded_context(browser, (site,), viewport={"width": 375, "height": 800}) as context:
        page = page_of(context)
        page.goto(site + "objective-1-2.html")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 375
        widths = page.evaluate("() => [...document.querySelectorAll('table.data')].map(t => [t.scrollWidth, t.clientWidth])")
        assert widths and any(scroll > client for scroll, client in widths)  # the wide one scrolls on its own
        assert page.errors == [] and context.offsite == []
    with guarded_context(browser, (site,), viewport={"width": 1280, "height": 800}) as context:
        page = page_of(context)
        page.goto(site + "objective-1-2.html")
        assert axe_serious(page, preload=False) == [] and page.errors == []
