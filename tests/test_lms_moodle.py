"""`moodle.xml` against the rules of Moodle's XML importer (qformat_xml and the question types'
save_question_options, read from Moodle's source), and read back into questions equal to the view's."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pipeline.render.lms.text import cdata
from tests.lmskit import blank, build_fixture, expected, is_grade, number, weight_problems


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return build_fixture(tmp_path_factory.mktemp("moodle"))


def _text(node: ET.Element | None, path: str = "text") -> str:
    found = node.find(path) if node is not None else None
    return (found.text or "") if found is not None else ""


def _fractions(q: ET.Element) -> list[float]:
    return [float(a.get("fraction")) for a in q.findall("answer")]


def _multichoice_problems(qid: str, q: ET.Element) -> list[str]:
    answers = [a for a in q.findall("answer") if _text(a).strip()]
    problems = [f"{qid}: fewer than two answers (notenoughanswers: the import stops)"] if len(answers) < 2 else []
    problems += [f"{qid}: {f} is not a Moodle grade value" for f in _fractions(q) if not is_grade(f)]
    if _text(q, ".") and q.findtext("single") in ("false", "0", ""):
        return problems + weight_problems(qid, _fractions(q))
    if max(_fractions(q), default=0) != 100:
        problems.append(f"{qid}: a single-answer question needs one answer at 100 (errfractionsnomax)")
    return problems


def _truefalse_problems(qid: str, q: ET.Element) -> list[str]:
    texts = sorted(_text(a) for a in q.findall("answer"))
    ok = texts == ["false", "true"] and sorted(_fractions(q)) == [0, 100]
    return [] if ok else [f"{qid}: true/false needs answers 'true' and 'false', one at 100"]


def _shortanswer_problems(qid: str, q: ET.Element) -> list[str]:
    problems = [] if 100 in _fractions(q) else [f"{qid}: no answer at 100 (fractionsnomax)"]
    stars = [t for t in (_text(a) for a in q.findall("answer")) if "*" in t.replace("\\*", "")]
    return problems + [f"{qid}: {t!r} holds an unescaped * (a wildcard)" for t in stars]


def _matching_problems(qid: str, q: ET.Element) -> list[str]:
    subs = q.findall("subquestion")
    questions = [s for s in subs if _text(s).strip()]
    problems = [] if len(questions) >= 2 else [f"{qid}: matching needs at least 2 questions"]
    return problems + ([] if len(subs) >= 3 else [f"{qid}: matching needs at least 3 answers"])


def _ordering_problems(qid: str, q: ET.Element) -> list[str]:
    problems = [] if len(q.findall("answer")) >= 2 else [f"{qid}: ordering needs at least 2 items"]
    return problems + ([] if q.findtext("selecttype") == "ALL" else [f"{qid}: selecttype must be ALL (RANDOM shows a subset)"])


def _numerical_problems(qid: str, q: ET.Element) -> list[str]:
    """import_numerical: every answer a number (or *) with a numeric tolerance >= 0, one at 100; the first unit's multiplier 1."""
    problems = [] if 100 in _fractions(q) else [f"{qid}: no answer at 100"]
    for a in q.findall("answer"):
        try:
            float(_text(a))
            ok = float(a.findtext("tolerance") or "0") >= 0
        except ValueError:
            ok = False
        problems += [] if ok else [f"{qid}: answer {_text(a)!r} or its tolerance is not a number"]
    units = q.findall("units/unit")
    if units and units[0].findtext("multiplier") not in ("1", "1.0"):
        problems.append(f"{qid}: the first unit's multiplier must be 1")
    return problems


RULES = {"numerical": _numerical_problems, "multichoice": _multichoice_problems, "truefalse": _truefalse_problems, "shortanswer": _shortanswer_problems,
         "matching": _matching_problems, "ordering": _ordering_problems, "essay": lambda qid, q: []}


def importer_problems(root: ET.Element) -> list[str]:
    """What Moodle's importer would refuse, or take silently and score wrong, in a quiz file."""
    problems, ids = [], set()
    for q in root.findall("question"):
        if q.get("type") == "category":
            problems += [] if _text(q, "category/text").startswith("$course$/top/") else [f"category {_text(q, 'category/text')!r}"]
            continue
        qid = q.findtext("idnumber") or "?"
        problems += [] if _text(q, "name/text").strip() else [f"{qid}: no name (xmlimportnoname)"]
        problems += [] if qid not in ids else [f"{qid}: idnumber used twice (the second is dropped)"]
        ids.add(qid)
        problems += RULES[q.get("type")](qid, q) if q.get("type") in RULES else [f"{qid}: unknown type {q.get('type')}"]
    return problems


def _answers(q: ET.Element, single: bool) -> list[tuple[str, bool]]:
    return [(_text(a), float(a.get("fraction")) > 0) for a in q.findall("answer")]


def _matching(q: ET.Element) -> dict:
    subs = [(_text(s), _text(s, "answer/text")) for s in q.findall("subquestion")]
    return {"kind": "matching", "pairs": [s for s in subs if s[0]], "extras": [a for p, a in subs if not p]}


KINDS = {
    "multichoice": lambda q: {"kind": "single" if q.findtext("single") == "true" else "multiple", "options": _answers(q, True)},
    "truefalse": lambda q: {"kind": "true_false", "options": [(_text(a).capitalize(), float(a.get("fraction")) == 100) for a in q.findall("answer")]},
    "shortanswer": lambda q: {"kind": "fill_in", "accepted": [_text(a).replace("\\*", "*") for a in q.findall("answer")]},
    "essay": lambda q: {"kind": "essay"},
    "matching": _matching,
    "ordering": lambda q: {"kind": "ordering", "order": [_text(a) for a in q.findall("answer")]},
    "numerical": lambda q: {"kind": "numeric", "number": _number(q.find("answer"))},
}


def _number(answer: ET.Element) -> tuple[float, float, float]:
    value, tolerance = float(_text(answer)), float(answer.findtext("tolerance"))
    return number(value, value - tolerance, value + tolerance)


def read_back(path: Path) -> tuple[list[dict], dict[str, str]]:
    """The questions of a Moodle XML file in the neutral shape, and each one's category."""
    questions, categories, category = [], {}, None
    for q in ET.parse(path).getroot().findall("question"):
        if q.get("type") == "category":
            category = _text(q, "category/text")
            continue
        qid = q.findtext("idnumber")
        categories[qid] = category
        questions.append(blank(id=qid, stem=_text(q, "questiontext/text"), feedback=_text(q, "generalfeedback/text"), **KINDS[q.get("type")](q)))
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
    assert _text(essay, "graderinfo/text") == "<p>It is a <em>dict</em> literal; <code>{}</code> are braces.</p>"


def test_links_only_http_https_mailto(built):
    single = next(q for q in read_back(built.out / "moodle.xml")[0] if q["id"] == "2.1-single")
    assert '<a href="https://example.com/gift">the docs</a>' in single["stem"]
    # an ftp: link in a source is an error in validate (issue 13), so the fixture has none; that the
    # exports' Markdown keeps such a link as text is tested on the function itself (test_lms_exports)
