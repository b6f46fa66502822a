"""Grading is defined once: one table of answers goes through the Python interpreter of the grading data
(pipeline/shapes/grading.py) and through the site's checker (templates/site/grade.js) in Debian's chromium,
and both must give the verdict the table states: the same score and the same right/wrong/undecided."""

from __future__ import annotations

import json

import pytest

from pipeline.paths import TEMPLATES
from pipeline.questions import make_question, type_of
from pipeline.shapes import grading
from pipeline.shapes.parts import Numeric


def _rule(**source) -> dict:
    """The grading data of a question's one part, made the way a build makes it."""
    q = make_question(id=source.pop("id", "q"), stem="s", explanation="e", **source)
    (part,) = type_of(q.type).parts(q)
    return grading.rule(part)


TEXT = _rule(type="short_answer", answer="Instead of padding.", accept=["Instead of padding"])
CPP = _rule(type="short_answer", answer="C++.", accept=["C++"])
PI_TEXT = _rule(type="short_answer", answer="3.14", accept=["3.14"])
STRASSE = _rule(type="short_answer", answer="Straße", accept=["Straße"])
NAIVE = _rule(type="short_answer", answer="naive", accept=["nai\u0308ve"])  # decomposed: NFKC composes it
BATCHING = _rule(type="short_answer", answer="Dynamic batching.", accept=["Dynamic batching"])
GPUS = _rule(type="short_answer", answer="1,000 GPUs", accept=["1,000 GPUs"])
SISYPHUS = _rule(type="short_answer", answer="σίσυφος", accept=["σίσυφος"])
ISTANBUL = _rule(type="short_answer", answer="istanbul", accept=["istanbul"])
ESSAY = _rule(type="short_answer", answer="A model answer, for the learner to compare.")
def _number(value: float, low: float, high: float, unit: str | None = None) -> dict:
    """A numeric part's rule; its bounds are the question type's to work out (tests/test_numeric.py)."""
    return grading.rule(Numeric(value=value, value_text=str(value), low=low, high=high, tolerance=high - value, tolerance_text="", unit=unit))


PI = _number(3.14, 3.13, 3.15, "GB")
THOUSAND = _number(1000, 980, 1020)
FOUR = _number(4, 4, 4)
NEGATIVE = _number(-2.5, -3.0, -2.0)
SINGLE = _rule(type="single", options=["a", "b", "c"], answer="b", shuffle=False)
MULTIPLE = _rule(type="multiple", options=["a", "b", "c", "d"], answer=["a", "c"], shuffle=False)
ALL_RIGHT = _rule(type="multiple", options=["a", "b"], answer=["a", "b"], shuffle=False)
TRUE = _rule(type="true_false", answer=True)
PAIRS = _rule(type="matching", pairs=[{"prompt": "one", "answer": "1"}, {"prompt": "two", "answer": "2"}, {"prompt": "three", "answer": "3"}],
              shuffle=False)
ORDER = _rule(type="ordering", items=["x", "y", "z"], shuffle=False)

# (name, rule, response, score, right): right is None when nothing is given or a person must judge.
CASES = [
    ("exact", TEXT, "Instead of padding", 1, True),
    ("case", TEXT, "INSTEAD OF PADDING", 1, True),
    ("spacing", TEXT, "  instead   of\tpadding ", 1, True),
    ("punctuation", TEXT, "Instead of padding!", 1, True),
    ("hyphens are spaces", TEXT, "instead-of-padding", 1, True),
    ("a word more", TEXT, "instead of paddings", 0, False),
    ("a word less", TEXT, "of padding", 0, False),
    ("C is not C++", CPP, "C", 0, False),
    ("c++", CPP, "c++", 1, True),
    ("C + + is not C++", CPP, "C + +", 0, False),
    ("a decimal point counts", PI_TEXT, "314", 0, False),
    ("a point between digits is kept", PI_TEXT, "3.14", 1, True),
    ("a comma is not a point", PI_TEXT, "3,14", 0, False),
    ("sharp s folds to ss", STRASSE, "STRASSE", 1, True),
    ("composed and decomposed", NAIVE, "na\u00efve", 1, True),
    ("full-width forms", BATCHING, "\uff24\uff59\uff4e\uff41\uff4d\uff49\uff43\u3000\uff42\uff41\uff54\uff43\uff48\uff49\uff4e\uff47", 1, True),
    ("no-break space", BATCHING, "dynamic\u00a0batching", 1, True),
    ("em dash", BATCHING, "dynamic\u2014batching", 1, True),
    ("curly quotes", BATCHING, "\u201cdynamic batching\u201d", 1, True),
    ("line separator", BATCHING, "dynamic\u2028batching", 1, True),
    ("thousands comma kept", GPUS, "1,000 gpus", 1, True),
    ("thousands comma needed", GPUS, "1000 GPUs", 0, False),
    ("Greek final sigma", SISYPHUS, "ΣΊΣΥΦΟΣ", 1, True),
    ("dotted capital I stays dotted", ISTANBUL, "İstanbul", 0, False),
    ("nothing typed", TEXT, "", 0, None),
    ("an essay is the learner's to judge", ESSAY, "My answer", 0, None),
    ("number", PI, "3.14", 1, True),
    ("upper edge", PI, "3.15", 1, True),
    ("lower edge", PI, "3.13", 1, True),
    ("just past the edge", PI, "3.151", 0, False),
    ("3.2 is wrong", PI, "3.2", 0, False),
    ("with the unit", PI, "3.14 GB", 1, True),
    ("the unit in lower case, no space", PI, "3.14gb", 1, True),
    ("another unit", PI, "3.14 MB", 0, False),
    ("full-width digits", PI, "\uff13.\uff11\uff14", 1, True),
    ("exponent", PI, "314e-2", 1, True),
    ("plus sign", PI, "+3.14", 1, True),
    ("the wrong sign", PI, "\u22123.14", 0, False),
    ("a decimal comma is not read", PI, "3,14", 0, False),
    ("words", PI, "three", 0, False),
    ("other scripts' digits are not read", PI, "\u0663", 0, False),
    ("nothing typed, number", PI, "", 0, None),
    ("relative tolerance, inside", THOUSAND, "1,020", 1, True),
    ("relative tolerance, outside", THOUSAND, "1021", 0, False),
    ("relative tolerance, lower edge", THOUSAND, "980", 1, True),
    ("exact number", FOUR, "4.0", 1, True),
    ("exact number, off", FOUR, "4.0001", 0, False),
    ("minus sign", NEGATIVE, "\u22122", 1, True),
    ("hyphen-minus", NEGATIVE, "-3.0", 1, True),
    ("single right", SINGLE, ["b"], 1, True),
    ("single wrong", SINGLE, ["a"], 0, False),
    ("single, nothing chosen", SINGLE, [], 0, None),
    ("multiple, exactly right", MULTIPLE, ["c", "a"], 1, True),
    ("multiple, half of the right ones", MULTIPLE, ["a"], 0.5, False),
    ("multiple, one right one wrong", MULTIPLE, ["a", "b"], 0, False),
    ("multiple, all right plus a wrong one", MULTIPLE, ["a", "c", "d"], 0.5, False),
    ("multiple, only wrong ones", MULTIPLE, ["b", "d"], 0, False),
    ("multiple, everything", MULTIPLE, ["a", "b", "c", "d"], 0, False),
    ("multiple, no wrong option exists", ALL_RIGHT, ["a"], 0.5, False),
    ("true", TRUE, ["true"], 1, True),
    ("false is wrong", TRUE, ["false"], 0, False),
    ("pairs, all matched", PAIRS, {"p1": "m1", "p2": "m2", "p3": "m3"}, 1, True),
    ("pairs, one of three wrong", PAIRS, {"p1": "m1", "p2": "m3", "p3": "m2"}, 1 / 3, False),
    ("sequence, in order", ORDER, ["i1", "i2", "i3"], 1, True),
    ("sequence, two swapped", ORDER, ["i2", "i1", "i3"], 0, False),
]


def test_the_table_is_big_enough_and_covers_every_shape():
    assert len(CASES) >= 30
    assert {rule["shape"] for _, rule, *_ in CASES} == {"choices", "text", "pairs", "sequence", "numeric"}


@pytest.mark.parametrize(("name", "rule", "response", "score", "right"), CASES, ids=[c[0] for c in CASES])
def test_python_gives_the_tables_verdict(name, rule, response, score, right):
    verdict = grading.grade(rule, response)
    assert (verdict.score, verdict.right) == (pytest.approx(score), right)


def test_chromium_gives_the_same_verdicts_as_python(browser):
    """grade.js, as the site ships it, in a real page, over the same data."""
    page = browser.new_page()
    try:
        page.goto("about:blank")
        page.evaluate((TEMPLATES / "site" / "grade.js").read_text(encoding="utf-8") + "\n;0")
        cases = [[rule, response] for _, rule, response, _, _ in CASES]
        got = page.evaluate("([cases, shared]) => cases.map(([rule, response]) => window.ExamGrade.grade(rule, response, shared))",
                            [cases, grading.site_data()])
    finally:
        page.close()
    python = [grading.grade(rule, response) for _, rule, response, _, _ in CASES]
    assert len(got) == len(CASES)
    disagreements = [(name, v, {"score": p.score, "right": p.right}) for (name, *_), v, p in zip(CASES, got, python, strict=True)
                     if v != {"score": p.score, "right": p.right}]
    assert disagreements == []


def test_the_site_data_is_plain_json():
    assert json.loads(json.dumps(grading.site_data())) == grading.site_data()
    assert json.loads(json.dumps(PI)) == PI
