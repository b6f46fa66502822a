"""The `numeric` question type: its bounds, its checks and messages, and the number in every output
(guide and answer key, deck in real Anki, bank against its schema, the site's data; the four LMS exports
are read back by tests/test_lms_*.py from the same kind of fixture)."""

from __future__ import annotations

import json
import re

import jsonschema
import pytest
from anki.collection import Collection
from pydantic import ValidationError
from pypdf import PdfReader

from pipeline.questions import QUESTION, make_question, type_of
from pipeline.questions.numeric import written
from pipeline.shapes import grading
from schema.export import SCHEMA_DIR
from tests.conftest import TODAY
from tests.kit.anki import import_package


def _part(**fields):
    q = make_question(id="n", type="numeric", stem="s", explanation="e", **fields)
    (part,) = type_of("numeric").parts(q)
    return q, part


def test_bounds_come_from_the_decimals_as_written():
    _, part = _part(answer=3.14, tolerance=0.01)
    assert (part.low, part.high) == (3.13, 3.15)  # binary floats alone give 3.1500000000000004 - 3.14 > 0.01
    assert grading.grade(grading.rule(part), "3.15").right is True
    _, relative = _part(answer=1000, tolerance="2%")
    assert (relative.low, relative.high, relative.tolerance, relative.tolerance_text) == (980.0, 1020.0, 20.0, "2%")
    _, negative = _part(answer=-2.5, tolerance="10%")
    assert (negative.low, negative.high) == (-2.75, -2.25)
    _, exact = _part(answer=4)
    assert (exact.low, exact.high, exact.tolerance_text, exact.value_text) == (4.0, 4.0, "", "4")


def test_the_answer_reads_as_the_author_wrote_it():
    q, part = _part(answer=3.14, tolerance=0.01, unit="GB")
    assert type_of("numeric").answer_text(q, (part,)) == "3.14 GB (± 0.01)"
    assert type_of("numeric").prompt_for(q) == "Give the number, in GB."
    assert [written(v) for v in (4, 4.0, 0.1, 1e-05, -2.5)] == ["4", "4", "0.1", "1e-05", "-2.5"]


@pytest.mark.parametrize(("fields", "problem"), [
    ({"answer": 3, "tolerance": -1}, "must not be negative, got -1"),
    ({"answer": 3, "tolerance": "150%"}, "150% would accept numbers of the other sign"),
])
def test_checks_refuse_a_tolerance_that_cannot_be_meant(fields, problem):
    q = make_question(id="n", type="numeric", stem="s", explanation="e", **fields)
    [(path, message, code)] = type_of("numeric").check(q)
    assert path == ("tolerance",) and problem in message and code == "question-answer"


@pytest.mark.parametrize("answer", ["3.14", True, float("inf"), float("nan"), None])
def test_the_answer_must_be_a_plain_finite_number(answer):
    with pytest.raises(ValidationError):
        QUESTION.validate_python({"id": "n", "type": "numeric", "stem": "s", "explanation": "e", "answer": answer})


def test_messages_at_the_authors_line(run_cli, make_sources):
    sources = make_sources("valid", "numeric")
    path = sources / "demo" / "numeric.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("answer: 3.14", 'answer: "3.14"').replace("tolerance: 0.01", "tolerance: 1 percent"))
    result = run_cli("validate", "--sources", str(sources), "--today", TODAY)
    lines = [line for line in result.out.splitlines() if "numeric.yaml" in line]
    assert result.code == 1 and len(lines) == 2, result.err
    assert re.search(r"numeric.yaml:\d+:\d+: error: questions\[0\]\.answer: unexpected value '3\.14'; expected the right number", lines[0]), lines
    assert "questions[0].tolerance: unexpected value '1 percent'; expected how far from the answer" in lines[1], lines


def test_numeric_in_the_guide_the_deck_the_bank_and_the_site(run_cli, make_sources, tmp_path):
    sources, out = make_sources("valid", "numeric"), tmp_path / "out"
    result = run_cli("build", "--sources", str(sources), "--today", TODAY, "--out", str(out))
    assert result.code == 0, result.err
    assert "skipped" not in result.err  # every output holds it
    demo = out / "demo"

    bank = json.loads((demo / "bank.json").read_text(encoding="utf-8"))
    jsonschema.validate(bank, json.loads((SCHEMA_DIR / "bank.schema.json").read_text(encoding="utf-8")))
    [pi] = [q for q in bank["questions"] if q["id"] == "1.9-pi"]
    assert (pi["type"], pi["answer"], pi["parts"][0]["shape"], pi["parts"][0]["low"], pi["parts"][0]["high"]) == \
        ("numeric", "3.14 (± 0.01)", "numeric", 3.13, 3.15)

    text = " ".join(page.extract_text() for page in PdfReader(demo / "study-guide.pdf").pages)
    assert "What is pi, to two decimal places?" in text and "3.14 (± 0.01)" in text  # the question, and its key

    col = Collection(str(tmp_path / "learner.anki2"))
    try:
        import_package(col, demo / "deck.apkg")
        card = col.get_card(col.find_cards('"Ref:1.9-pi"')[0])
        assert "What is pi" in card.question() and "Give the number." in card.question()
        assert "3.14 (± 0.01)" in card.answer()
        bytes_card = col.get_card(col.find_cards('"Ref:1.9-bytes"')[0])
        assert "Give the number in bytes." in bytes_card.question() and "4 bytes" in bytes_card.answer()
    finally:
        col.close()

    data = (demo / "site" / "assets" / "exam-data.js").read_text(encoding="utf-8")
    site = json.loads(data.removeprefix("window.EXAM_DATA = ").rstrip().removesuffix(";"))
    assert site["questions"]["1.9-pi"]["grade"]["parts"] == [{"shape": "numeric", "low": 3.13, "high": 3.15, "units": []}]
    page = (demo / "site" / "objective-1-9.html").read_text(encoding="utf-8")
    assert 'inputmode="decimal"' in page and "3.14 (± 0.01)" in page  # the input, and the answer folded for no-JS readers
