"""`questions.gift` read back by gift-pegjs (an independent GIFT parser, pinned in package.json, run with
Node): no syntax error, and every question's type, stem, answers, weights, category and feedback as
in the exam view. Ordering questions, which GIFT cannot hold, are left out with a warning."""

from __future__ import annotations

import json
import re

import pytest

from tests.kit.lms import LMS_ONLY, blank, build_fixture, expected, number, parse_gift, weight_problems


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return build_fixture(tmp_path_factory.mktemp("gift"), only=LMS_ONLY)


@pytest.fixture(scope="module")
def parsed(built):
    code, out = parse_gift(built.out / "questions.gift")
    assert code == 0, f"gift-pegjs: {out}"
    return json.loads(out)


def _unmask(text: str) -> str:
    """gift-pegjs 1.0.2 leaves its escape placeholders (`&&058;` for `:`) in matching answers; Moodle decodes them."""
    return re.sub(r"&&(\d+);", lambda m: chr(int(m.group(1))), text)


def _choices(q: dict) -> dict:
    weights = [c["weight"] for c in q["choices"]]
    if any(w is not None for w in weights):
        return {"kind": "multiple", "options": [(c["text"]["text"], c["weight"] > 0) for c in q["choices"]]}
    return {"kind": "single", "options": [(c["text"]["text"], c["isCorrect"]) for c in q["choices"]]}


def _matching(q: dict) -> dict:
    pairs = [(p["subquestion"]["text"], _unmask(p["subanswer"])) for p in q["matchPairs"] if p["subquestion"]["text"]]
    return {"kind": "matching", "pairs": pairs, "extras": [_unmask(p["subanswer"]) for p in q["matchPairs"] if not p["subquestion"]["text"]]}


TYPES = {
    "MC": _choices,
    "TF": lambda q: {"kind": "true_false", "options": [("True", q["isTrue"]), ("False", not q["isTrue"])]},
    "Short": lambda q: {"kind": "fill_in", "accepted": [c["text"]["text"].replace("\\*", "*") for c in q["choices"]]},
    "Essay": lambda q: {"kind": "essay"},
    "Matching": _matching,
    "Numerical": lambda q: {"kind": "numeric", "number": _number(q["choices"][0]["text"])},
}


def _number(answer: dict) -> tuple[float, float, float]:
    assert answer["type"] == "range", answer  # {#=value:tolerance}
    return number(answer["number"], answer["number"] - answer["range"], answer["number"] + answer["range"])


def _as_neutral(q: dict) -> dict:
    assert q["stem"]["format"] == "html" and q["globalFeedback"]["format"] == "html", q["title"]
    return blank(id=q["title"], stem=q["stem"]["text"], feedback=q["globalFeedback"]["text"], **TYPES[q["type"]](q))


def test_every_question_comes_back_as_the_view_has_it(built, parsed):
    questions = [q for q in parsed if q["type"] != "Category"]
    wanted = [expected(q) for q in built.view.questions if q.shapes != ("sequence",)]
    assert [_as_neutral(q) for q in questions] == wanted
    assert {q["kind"] for q in wanted} >= {"single", "multiple", "true_false", "fill_in", "essay", "matching"}


def test_categories_are_exam_section_objective(built, parsed):
    category, seen = None, {}
    for q in parsed:
        if q["type"] == "Category":
            category = q["title"]
        else:
            seen[q["title"]] = category
    for q in built.view.questions:
        if q.type != "ordering":
            assert seen[q.id] == "$course$/top/" + "/".join(n.replace("/", "//") for n in q.category_path)
    assert "$course$/top/DEMO-1/2 More/2.1 Odd // even: {parts} ~ #1" in seen.values()


def test_multiple_answer_weights_are_moodle_grades_summing_to_100_and_minus_100(parsed):
    multiple = [q for q in parsed if q["type"] == "MC" and any(c["weight"] is not None for c in q["choices"])]
    assert len(multiple) == 3
    for q in multiple:
        assert weight_problems(q["title"], [c["weight"] for c in q["choices"]]) == []
    thirds = next(q for q in multiple if q["title"] == "2.1-multiple")
    assert sorted(c["weight"] for c in thirds["choices"]) == [-100, 33.33333, 33.33333, 33.33333]


def test_ordering_is_skipped_with_a_warning_naming_it(built, parsed):
    assert "2.1-ordering" not in {q["title"] for q in parsed}
    assert "warning: demo: gift: question 2.1-ordering (ordering) skipped: GIFT has no ordering question" in built.stderr


def test_the_parser_fails_on_a_broken_file(built, tmp_path):
    """The check can fail: an unescaped `=` in a stem is a GIFT syntax error for gift-pegjs."""
    broken = tmp_path / "broken.gift"
    broken.write_text((built.out / "questions.gift").read_text(encoding="utf-8").replace("\\=", "=", 1), encoding="utf-8")
    code, message = parse_gift(broken)
    assert code == 2 and "at" in message

