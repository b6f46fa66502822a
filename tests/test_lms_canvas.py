"""`canvas-qti.zip`: the layout Canvas's own export (and text2qti) uses, and every item read back into
the question the view holds. Ordering questions, which classic Canvas quizzes cannot hold, are left
out with a warning."""

from __future__ import annotations

import xml.etree.ElementTree as ET
import zipfile

import pytest

from pipeline.shapes.parts import Pairs
from pipeline.text.plaintext import to_plain
from tests.kit.lms import LMS_ONLY, blank, build_fixture, expected, number

QTI = "{http://www.imsglobal.org/xsd/ims_qtiasiv1p2}"
CC = "{http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1}"
KINDS = {"multiple_choice_question": "single", "multiple_answers_question": "multiple", "true_false_question": "true_false",
         "short_answer_question": "fill_in", "essay_question": "essay", "matching_question": "matching", "numerical_question": "numeric"}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return build_fixture(tmp_path_factory.mktemp("canvas"), only=LMS_ONLY)


@pytest.fixture(scope="module")
def archive(built):
    with zipfile.ZipFile(built.out / "canvas-qti.zip") as z:
        return {name: z.read(name) for name in z.namelist()}


def test_the_layout_is_canvas_s(archive):
    assert sorted(archive) == ["imsmanifest.xml", "non_cc_assessments/", "quiz_demo/assessment_meta.xml", "quiz_demo/quiz_demo.xml"]
    manifest = ET.fromstring(archive["imsmanifest.xml"])
    resources = {r.get("identifier"): r for r in manifest.iter(f"{CC}resource")}
    quiz = resources["quiz_demo"]
    assert quiz.get("type") == "imsqti_xmlv1p2" and quiz.find(f"{CC}file").get("href") == "quiz_demo/quiz_demo.xml"
    meta = resources[quiz.find(f"{CC}dependency").get("identifierref")]
    assert meta.get("href") == "quiz_demo/assessment_meta.xml"
    assert ET.fromstring(archive["quiz_demo/assessment_meta.xml"]).get("identifier") == "quiz_demo"
    assessment = ET.fromstring(archive["quiz_demo/quiz_demo.xml"]).find(f"{QTI}assessment")
    assert assessment.get("ident") == "quiz_demo"


def _meta(item: ET.Element) -> dict[str, str]:
    return {f.findtext(f"{QTI}fieldlabel"): f.findtext(f"{QTI}fieldentry") for f in item.iter(f"{QTI}qtimetadatafield")}


def _full_marks(item: ET.Element) -> ET.Element:
    """The condition that sets SCORE to 100."""
    return next(c for c in item.iter(f"{QTI}respcondition") if c.findtext(f"{QTI}setvar") == "100").find(f"{QTI}conditionvar")


def _choices(item: ET.Element, kind: str) -> dict:
    labels = [(lab.get("ident"), lab.findtext(f"{QTI}material/{QTI}mattext")) for lab in item.iter(f"{QTI}response_label")]
    condition = _full_marks(item)
    if kind == "multiple":
        right = {v.text for v in condition.find(f"{QTI}and").findall(f"{QTI}varequal")}
    else:
        right = {condition.findtext(f"{QTI}varequal")}
    return {"kind": kind, "options": [(text, ident in right) for ident, text in labels]}


def _matching(item: ET.Element, kind: str) -> dict:
    responses = item.find(f"{QTI}presentation").findall(f"{QTI}response_lid")
    answer = {lab.get("ident"): lab.findtext(f"{QTI}material/{QTI}mattext") for lab in responses[0].iter(f"{QTI}response_label")}
    right = {v.get("respident"): v.text for v in item.iter(f"{QTI}varequal")}
    pairs = [(r.findtext(f"{QTI}material/{QTI}mattext"), answer[right[r.get("ident")]]) for r in responses]
    steps = [float(s.text) for s in item.iter(f"{QTI}setvar")]
    assert abs(sum(steps) - 100) < 0.05, steps
    return {"kind": kind, "pairs": pairs, "extras": [a for i, a in answer.items() if i not in right.values()]}


READ = {"single": _choices, "multiple": _choices, "true_false": _choices, "matching": _matching,
        "fill_in": lambda item, kind: {"kind": kind, "accepted": [v.text for v in _full_marks(item).findall(f"{QTI}varequal")]},
        "essay": lambda item, kind: {"kind": kind}, "numeric": lambda item, kind: {"kind": kind, "number": _number(item)}}


def _number(item: ET.Element) -> tuple[float, float, float]:
    """numerical_question as Canvas writes an answer with a margin: <or> the exact value, or <and> gte/lte </or>."""
    condition = _full_marks(item)
    assert item.find(f"{QTI}presentation//{QTI}render_fib").get("fibtype") == "Decimal"
    value = float(condition.find(f"{QTI}or/{QTI}varequal").text)
    low, high = (float(condition.find(f"{QTI}or/{QTI}and/{QTI}{op}").text) for op in ("vargte", "varlte"))
    return number(value, low, high)


def read_item(item: ET.Element) -> dict:
    kind = KINDS[_meta(item)["question_type"]]
    feedback = next(f for f in item.iter(f"{QTI}itemfeedback") if f.get("ident") == "general_fb")
    return blank(id=item.get("ident").removeprefix("q_"), stem=item.findtext(f"{QTI}presentation/{QTI}material/{QTI}mattext"),
                 feedback=feedback.findtext(f"{QTI}flow_mat/{QTI}material/{QTI}mattext"), **READ[kind](item, kind))


def _canvas_expectation(q) -> dict:
    """Canvas shows matching prompts as plain text."""
    want = expected(q)
    if not isinstance(q.parts[0], Pairs):
        return want
    return want | {"pairs": [(to_plain(p.text_md), a) for p, (_, a) in zip(q.parts[0].prompts, want["pairs"], strict=True)]}


def test_every_item_reads_back_as_the_view_has_it(built, archive):
    items = ET.fromstring(archive["quiz_demo/quiz_demo.xml"]).iter(f"{QTI}item")
    assert [read_item(i) for i in items] == [_canvas_expectation(q) for q in built.view.questions if q.shapes != ("sequence",)]


def test_item_metadata_names_points_and_answer_ids(archive):
    items = list(ET.fromstring(archive["quiz_demo/quiz_demo.xml"]).iter(f"{QTI}item"))
    assert items  # the quiz holds items: each is checked below
    for item in items:
        meta = _meta(item)
        assert meta["points_possible"] == "1" and meta["question_type"] in KINDS
        labels = list(dict.fromkeys(lab.get("ident") for lab in item.iter(f"{QTI}response_label") if lab.get("ident") != "answer1"))
        assert meta["original_answer_ids"] == ",".join(labels)


def test_ordering_is_skipped_with_a_warning_naming_it(built, archive):
    assert b"2.1-ordering" not in archive["quiz_demo/quiz_demo.xml"]
    assert "warning: demo: canvas: question 2.1-ordering (ordering) skipped: Canvas classic quizzes have no ordering question" in built.stderr
