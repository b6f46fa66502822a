"""The `cloze` shape (pipeline/shapes/cloze/): a passage with several gaps, each with its own accepted answers.
Its rule and partial credit, its author's checks, and the shape in every output that can carry it, each read
back by an independent parser: bank.json against its schema, the guide's PDF text, the deck in real Anki,
moodle.xml (a Cloze question's embedded answers, by Moodle's syntax), qti21.zip (one textEntryInteraction
per gap), canvas-qti.zip (fill_in_multiple_blanks_question), GIFT skipped with the shape's reason, the site's
data and page, and `stats` reading a response in the long format and in Moodle's responses report."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import jsonschema
import pytest
from anki.collection import Collection
from pypdf import PdfReader

from pipeline.questions import make_question, type_of
from pipeline.shapes import grading, registry
from pipeline.stats import responses as stats_responses
from pipeline.stats.match import key_of
from schema.export import SCHEMA_DIR
from tests.kit.anki import import_package
from tests.kit.lms import build_fixture
from tests.kit.moodle import importer_problems
from tests.kit.studysite import build_site, guarded_context, page_of

QID = "1.8-dp"
QTI = "{http://www.imsglobal.org/xsd/imsqti_v2p1}"
GAPS = [["model", "weights"], ["batch", "minibatch"]]


def _question(**fields):
    base = {"id": "c", "type": "cloze", "stem": "Fill in.", "explanation": "e",
            "text": "Keep the [___] on each GPU; split the [___].", "gaps": GAPS}
    return make_question(**{**base, **fields})


def test_parts_rule_and_partial_credit():
    q = _question()
    (part,) = type_of("cloze").parts(q)
    assert registry.of(part).name == "cloze"
    assert part.segments == ("Keep the ", " on each GPU; split the ", ".") and [g.accepted for g in part.gaps] == [("model", "weights"), ("batch", "minibatch")]
    assert type_of("cloze").answer_text(q, (part,)) == "Keep the **model** on each GPU; split the **batch**."
    rule = grading.rule(part)
    assert rule == {"shape": "cloze", "gaps": [["model", "weight"], ["batch", "minibatch"]]}  # answer keys (plural folded)
    verdicts = [grading.grade(rule, r) for r in (["Model", "batches"], ["weights", "tensor"], ["x", "y"], [])]
    assert [(v.score, v.right) for v in verdicts] == [(1.0, True), (0.5, False), (0.0, False), (0.0, None)]


@pytest.mark.parametrize(("fields", "message"), [
    ({"gaps": [["model"]]}, "the text has 2 gaps ([___]) and `gaps` lists 1"),
    ({"gaps": [["model", "Model"], ["batch"]]}, "answer 'Model' is given twice"),
])
def test_checks_name_what_is_wrong(fields, message):
    problems = type_of("cloze").check(_question(**fields))
    assert problems and message in problems[0][1], problems


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return build_fixture(tmp_path_factory.mktemp("cloze"), ("valid", "cloze"))


def test_the_build_skips_it_only_in_gift_with_the_shape_s_reason(built):
    skipped = [line for line in built.stderr.splitlines() if QID in line and "skipped" in line]
    assert skipped == [f"warning: demo: gift: question {QID} (cloze) skipped: {registry.reasons('gift')['cloze']}"]
    assert QID not in (built.out / "questions.gift").read_text(encoding="utf-8")


def test_bank_json_holds_the_gaps_under_its_schema(built):
    bank = json.loads((built.out / "bank.json").read_text(encoding="utf-8"))
    jsonschema.validate(bank, json.loads((SCHEMA_DIR / "bank.schema.json").read_text(encoding="utf-8")))
    [q] = [q for q in bank["questions"] if q["id"] == QID]
    part = q["parts"][0]
    assert (q["type"], part["shape"], [g["accepted"] for g in part["gaps"]]) == ("cloze", "cloze", GAPS)
    assert part["segments"][0] == "Data parallelism keeps a copy of the " and len(part["segments"]) == 3
    assert q["answer"] == "Data parallelism keeps a copy of the **model** on every GPU and splits the **batch** between them."


def test_the_guide_prints_the_passage_with_numbered_gaps_and_the_key(built):
    text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(built.out / "study-guide.pdf").pages)
    assert "Complete the sentence about data parallelism." in text
    assert "Data parallelism keeps a copy of the (1)" in text and "(2)" in text  # the question, its gaps numbered
    assert "1. model / weights; 2. batch / minibatch" in text  # the answer key


def test_the_deck_imports_into_real_anki_with_blanks_in_front_and_answers_behind(built, tmp_path):
    col = Collection(str(tmp_path / "learner.anki2"))
    try:
        import_package(col, built.out / "deck.apkg")
        card = col.get_card(col.find_cards(f'"Ref:{QID}"')[0])
        front, back = card.question(), card.answer()
        assert "Complete the sentence" in front and "[1] ____" in front and "[2] ____" in front and "model" not in front.split("Complete")[1]
        assert "[1] model" in back and "[2] batch" in back
    finally:
        col.close()


def _moodle_answers(field: str) -> list[str]:
    """Moodle's Cloze syntax: answers split on unescaped ~, each =answer (100%), backslash escapes."""
    found = re.split(r"(?<!\\)~", field)
    assert all(a.startswith("=") for a in found), found
    return [re.sub(r"\\(.)", r"\1", a[1:]) for a in found]


def test_moodle_xml_is_a_cloze_question_with_one_shortanswer_per_gap(built):
    root = ET.parse(built.out / "moodle.xml").getroot()
    [q] = [q for q in root.findall("question") if q.findtext("idnumber") == QID]
    assert q.get("type") == "cloze"
    text = q.findtext("questiontext/text")
    gaps = re.findall(r"\{(\d+):SHORTANSWER:(.*?)(?<!\\)\}", text)
    assert [(weight, _moodle_answers(field)) for weight, field in gaps] == [("1", GAPS[0]), ("1", GAPS[1])]
    assert "Complete the sentence about data parallelism." in text and "between them." in text
    assert importer_problems(root) == []


def test_moodle_escapes_the_cloze_syntax_in_an_answer():
    from pipeline.shapes.cloze.outputs import moodle

    (part,) = type_of("cloze").parts(_question(gaps=[["a}b~c#d"], ["x/y\"z\\w"]]))
    _, _, text = moodle.write(part)
    fields = re.findall(r"\{1:SHORTANSWER:(.*?)(?<!\\)\}", text)
    assert [_moodle_answers(f) for f in fields] == [["a}b~c#d"], ['x/y"z\\w']]


def test_qti21_item_has_a_text_entry_per_gap_each_mapped(built):
    with zipfile.ZipFile(built.out / "qti21.zip") as archive:
        items = [ET.fromstring(archive.read(n)) for n in archive.namelist() if n.endswith(".xml") and b"assessmentItem" in archive.read(n)[:400]]
    [item] = [i for i in items if i.get("title", "").startswith(QID) or QID.replace(".", "_") in i.get("identifier", "") or
              any(QID in (t.text or "") for t in i.iter())]
    entries = [e.get("responseIdentifier") for e in item.iter(f"{QTI}textEntryInteraction")]
    declarations = {d.get("identifier"): d for d in item.findall(f"{QTI}responseDeclaration")}
    assert entries == ["RESPONSE_G1", "RESPONSE_G2"] and set(declarations) == set(entries)
    mapped = [[m.get("mapKey") for m in declarations[e].iter(f"{QTI}mapEntry")] for e in entries]
    assert mapped == GAPS
    assert [declarations[e].get("baseType") for e in entries] == ["string", "string"]
    processing = item.find(f"{QTI}responseProcessing")
    assert [m.get("identifier") for m in processing.iter(f"{QTI}mapResponse")] == entries  # SCORE: their mean
    assert processing.find(f".//{QTI}divide/{QTI}baseValue").text == "2"


def test_canvas_item_is_fill_in_multiple_blanks(built):
    with zipfile.ZipFile(built.out / "canvas-qti.zip") as archive:
        docs = [ET.fromstring(archive.read(n)) for n in archive.namelist() if n.endswith(".xml")]
    items = [i for d in docs for i in d.iter() if i.tag.endswith("item") and "Complete the sentence" in ET.tostring(i, encoding="unicode")]
    assert items
    item = items[0]
    fields = {f.findtext("{*}fieldlabel"): f.findtext("{*}fieldentry") for f in item.iter() if f.tag.endswith("qtimetadatafield")}
    assert fields["question_type"] == "fill_in_multiple_blanks_question"
    text = "".join(m.text or "" for m in item.iter() if m.tag.endswith("mattext"))
    assert "[g1]" in text and "[g2]" in text
    lids = [r for r in item.iter() if r.tag.endswith("response_lid")]
    assert [r.get("ident") for r in lids] == ["response_g1", "response_g2"]
    labels = [[lab.findtext(".//{*}mattext") for lab in r.iter() if lab.tag.endswith("response_label")] for r in lids]
    assert labels == GAPS
    steps = [s.text for s in item.iter() if s.tag.endswith("setvar") and s.get("action") == "Add"]
    assert steps == ["50.00", "50.00"]


def _site_data(out: Path) -> dict:
    data = (out / "site" / "assets" / "exam-data.js").read_text(encoding="utf-8")
    return json.loads(data.removeprefix("window.EXAM_DATA = ").rstrip().removesuffix(";"))


def test_the_site_has_an_input_per_gap_its_script_and_the_rule(built):
    site = _site_data(built.out)
    assert site["questions"][QID]["grade"]["parts"] == [{"shape": "cloze", "gaps": [["model", "weight"], ["batch", "minibatch"]]}]
    page = (built.out / "site" / "objective-1-8.html").read_text(encoding="utf-8")
    assert page.count('data-gap="g') == 2 and 'src="assets/shape-cloze.js"' in page and 'href="assets/shape-cloze.css"' in page
    assert (built.out / "site" / "assets" / "shape-cloze.js").read_bytes() == (registry.named("cloze").folder / "site.js").read_bytes()


def test_stats_reads_a_cloze_response_in_the_long_format_and_moodle_s_summary(built):
    [q] = [q for q in built.view.questions if q.id == QID]
    key = key_of(q)
    assert key.auto and key.shape == "cloze"
    for raw, form, want in (("model|tensor", "ids", 0.5), ("g2=minibatch|g1=weights", "ids", 1.0),
                            ("part 1: Model; part 2: batches", "summary", 1.0), ("part 2: batch", "summary", 0.5)):
        _, response = stats_responses.read(key, raw, form)
        assert stats_responses.score(key, response) == want, (raw, form)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return build_site(tmp_path_factory.mktemp("cloze-site"), "valid", "cloze")


def test_in_the_browser_each_gap_is_graded_by_the_shared_rule_with_partial_credit(browser, site):
    """Debian's chromium: the form's gaps read by the shape's own script, graded per gap by grade.js's registry
    (a half is a half, as Python's grade says), incomplete until every gap is filled, kept over a reload."""
    url = (site / "site" / "objective-1-8.html").as_uri()
    with guarded_context(browser, ((site / "site").as_uri() + "/",)) as context:
        page = page_of(context)
        page.goto(url)
        form = page.locator(f"form[data-qid='{QID}']")
        gaps = form.locator("input[data-gap]")
        assert gaps.count() == 2
        boxes = [gaps.nth(i).bounding_box() for i in range(2)]
        assert boxes[0]["width"] < 400 and form.locator(".cloze-passage").bounding_box()["width"] > 2 * boxes[0]["width"]  # inline, not a line each
        gaps.nth(0).fill("Weights")
        form.locator("button.check").click()
        assert form.locator(".verdict").text_content() == "Answer every part first."
        gaps.nth(1).fill("tensor")
        form.locator("button.check").click()
        assert form.locator(".verdict").text_content() == "Not quite."
        scores = page.evaluate("([id, rs]) => rs.map(r => window.ExamGrade.grade(window.EXAM_DATA.questions[id].grade.parts[0], r, window.EXAM_DATA.grading))",
                               [QID, [["Weights", "tensor"], ["model", "mini-batches"], ["x", "y"]]])
        rule = _site_data(site)["questions"][QID]["grade"]["parts"][0]
        python = [grading.grade(rule, r) for r in (["Weights", "tensor"], ["model", "mini-batches"], ["x", "y"])]
        assert scores == [{"score": v.score, "right": v.right} for v in python] == [
            {"score": 0.5, "right": False}, {"score": 1.0, "right": True}, {"score": 0.0, "right": False}]
        gaps.nth(1).fill("minibatches")
        form.locator("button.check").click()
        assert form.locator(".verdict").text_content() == "Correct."
        assert "model" in form.locator(".feedback").text_content()  # the filled passage, shown after checking
        page.reload()
        assert [gaps.nth(i).input_value() for i in range(2)] == ["Weights", "minibatches"]  # the saved answer put back
        assert page.evaluate("() => { try { window.ExamGrade.shape('drawing'); return 'no error'; } catch (e) { return e.message; } }") \
            == "unknown shape drawing"
        assert context.offsite == [] and page.errors == []
