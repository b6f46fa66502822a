"""`moodle.xml` against the rules of Moodle's XML importer (qformat_xml and the question types'
save_question_options, read from Moodle's source), and read back into questions equal to the view's."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pipeline.render.lms.text import cdata
from tests.kit.lms import LMS_ONLY, blank, build_fixture, expected, number
from tests.kit.moodle import importer_problems, text_at


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return build_fixture(tmp_path_factory.mktemp("moodle"), only=LMS_ONLY)


def _answers(q: ET.Element, single: bool) -> list[tuple[str, bool]]:
    return [(text_at(a), float(a.get("fraction")) > 0) for a in q.findall("answer")]


def _matching(q: ET.Element) -> dict:
    subs = [(text_at(s), text_at(s, "answer/text")) for s in q.findall("subquestion")]
    return {"kind": "matching", "pairs": [s for s in subs if s[0]], "extras": [a for p, a in subs if not p]}


KINDS = {
    "multichoice": lambda q: {"kind": "single" if q.findtext("single") == "true" else "multiple", "options": _answers(q, True)},
    "truefalse": lambda q: {"kind": "true_false", "options": [(text_at(a).capitalize(), float(a.get("fraction")) == 100) for a in q.findall("answer")]},
    "shortanswer": lambda q: {"kind": "fill_in", "accepted": [text_at(a).replace("\\*", "*") for a in q.findall("answer")]},
    "essay": lambda q: {"kind": "essay"},
    "matching": _matching,
    "ordering": lambda q: {"kind": "ordering", "order": [text_at(a) for a in q.findall("answer")]},
    "numerical": lambda q: {"kind": "numeric", "number": _number(q.find("answer"))},
}


def _number(answer: ET.Element) -> tuple[float, float, float]:
    value, tolerance = float(text_at(answer)), float(answer.findtext("tolerance"))
    return number(value, value - tolerance, value + tolerance)


def read_back(path: Path) -> tuple[list[dict], dict[str, str]]:
    """The questions of a Moodle XML file in the neutral shape, and each one's category."""
    questions, categories, category = [], {}, None
    for q in ET.parse(path).getroot().findall("question"):
        if q.get("type") == "category":
            category = text_at(q, "category/text")
            continue
        qid = q.findtext("idnumber")
        categories[qid] = category
        questions.append(blank(id=qid, stem=text_at(q, "questiontext/text"), feedback=text_at(q, "generalfeedback/text"), **KINDS[q.get("type")](q)))
    return questions, categories


def test_the_file_passes_the_importer_rules(built):
    assert importer_problems(ET.parse(built.out / "moodle.xml").getroot()) == []


def test_every_question_comes_back_as_the_view_has_it(built):
    questions, categories = read_back(built.out / "moodle.xml")
    assert questions == [expected(q) for q in built.view.questions]
    for q in built.view.questions:
        assert categories[q.id] == "$course$/top/" + "/".join(n.replace("/", "//") for n in q.category_path)
    assert "DEMO-1/2 More/2.1 Odd // even: {parts} ~ #1" in categories["2.1-single"]


def test_the_checker_catches_what_the_importer_refuses(built):
    text = (built.out / "moodle.xml").read_text(encoding="utf-8")
    broken = text.replace('fraction="33.33333"', 'fraction="33.3"', 1).replace("<usecase>0</usecase>", "<usecase>0</usecase><answer fraction=\"100\"><text>a*b</text></answer>", 1)
    problems = importer_problems(ET.fromstring(broken))
    assert any("33.3 is not a Moodle grade value" in p for p in problems)
    assert any("positive fractions add up to 99.96" in p for p in problems)
    assert any("unescaped *" in p for p in problems)
    root = ET.fromstring(text)
    question = next(q for q in root.findall("question") if q.findtext("idnumber") == "1.1-q1")
    for answer in question.findall("answer")[1:]:
        question.remove(answer)
    assert "1.1-q1: fewer than two answers (notenoughanswers: the import stops)" in importer_problems(root)


def test_cdata_is_split_at_its_end_marker():
    """Markdown escapes `>` in HTML, so sources cannot put `]]>` into CDATA today; the split guards the day they can."""
    text = "<p>a ]]> b ]]]]> c</p>"
    assert ET.fromstring(f"<text>{cdata(text)}</text>").text == text


def test_stars_are_escaped_and_a_quote_holding_the_cdata_end_comes_back(built):
    text = (built.out / "moodle.xml").read_text(encoding="utf-8")
    single = next(q for q in read_back(built.out / "moodle.xml")[0] if q["id"] == "2.1-single")
    assert "“A star ]]&gt; matches anything.”" in single["feedback"]
    assert "<text>2\\*3 = six: #1</text>" in text
    cloze = next(q for q in built.view.questions if q.id == "gen-cloze-2.1-star-c1")
    assert cloze.parts[0].accepted == ("2*3 = six: #1",)


def test_the_essay_carries_its_model_answer_for_the_grader(built):
    essay = next(q for q in ET.parse(built.out / "moodle.xml").getroot().findall("question") if q.findtext("idnumber") == "2.1-essay")
    assert essay.get("type") == "essay"
    assert text_at(essay, "graderinfo/text") == "<p>It is a <em>dict</em> literal; <code>{}</code> are braces.</p>"


def test_links_only_http_https_mailto(built):
    single = next(q for q in read_back(built.out / "moodle.xml")[0] if q["id"] == "2.1-single")
    assert '<a href="https://example.com/gift">the docs</a>' in single["stem"]
    # an ftp: link in a source is an error in validate (issue 13), so the fixture has none; that the
    # exports' Markdown keeps such a link as text is tested on the function itself (test_lms_exports)
