"""`stats` on files that follow the platforms' layouts by hand: quoted commas and line breaks, blank
responses, several attempts, unmatched rows; and on malformed or foreign CSV: a clear error naming the
file, the row and what was expected, and nothing written."""

from __future__ import annotations

import contextlib
import csv
import io
import json
from pathlib import Path

import pytest

from pipeline.cli import main
from tests.kit import stats as kit


@pytest.fixture
def exam(tmp_path):
    sources = kit.write_exam(tmp_path)
    return tmp_path, kit.view_of(sources)


def _stats(root: Path, *files: Path) -> tuple[int, str]:
    """The exit code and what was printed (the diagnostics go to stdout, the rest to stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        code = main(["stats", "--sources", str(root / "sources"), "--today", "2026-11-29", "--out", str(root / "report"), *map(str, files)])
    return code, out.getvalue() + err.getvalue()


def _write(path: Path, rows: list[list[str]], bom: bool = False) -> Path:
    with path.open("w", newline="", encoding="utf-8-sig" if bom else "utf-8") as handle:
        csv.writer(handle).writerows(rows)
    return path


def _written(root: Path) -> list[str]:
    return [p.name for p in (root / "sources" / "stats-demo").glob("item-stats.json")] + ([("report")] if (root / "report").exists() else [])


def _q(view, qid: str):
    return next(q for q in view.questions if q.id == qid)


def test_moodle_responses_with_quotes_blanks_and_several_attempts(exam):
    root, view = exam
    q1, q2 = _q(view, kit.qid(0)), _q(view, kit.qid(1))
    right = lambda q: next(o.text_md for o in kit.options(q) if o.correct)  # noqa: E731
    wrong = lambda q: next(o.text_md for o in kit.options(q) if not o.correct)  # noqa: E731
    summary = lambda q: q.stem_md + ": " + "; ".join(o.text_md for o in kit.options(q))  # noqa: E731
    header = ["Last name", "First name", "Email address", "State", "Started on", "Completed", "Time taken", "Grade/10.00",
              "Question 1", "Response 1", "Right answer 1", "Question 2", "Response 2", "Right answer 2", "Question 3", "Response 3", "Right answer 3"]
    essay = _q(view, kit.ESSAY)
    rows = [header]
    for i, (a1, a2) in enumerate([(right(q1), right(q2)), (wrong(q1), "-"), (right(q1), wrong(q2))]):
        rows.append([f"Doe, {i}", "Jane", f"j{i}@example.org", "Finished", f"{i + 1} November 2026  9:00 AM", "", "5 mins", "1.00",
                     summary(q1), a1, right(q1), summary(q2), a2, right(q2), essay.stem_md, "It depends,\nsaid \"the\" manual", ""])
    rows.append(["Doe, 0", "Jane", "j0@example.org", "Finished", "20 November 2026  9:00 AM", "", "", "", summary(q1), wrong(q1), "", summary(q2),
                 wrong(q2), "", essay.stem_md, "", ""])  # a later attempt
    rows.append(["Roe", "Ann", "ann@example.org", "Finished", "2 November 2026  9:00 AM", "", "", "", "A question since deleted: x; y", "x", "",
                 summary(q2), "not an option at all", "", essay.stem_md, "", ""])
    code, err = _stats(root, _write(root / "responses.csv", rows, bom=True))
    assert code == 0, err
    data = json.loads((root / "sources" / "stats-demo" / "item-stats.json").read_text())
    assert data["later_attempts"] == 2 and data["learners"] == 3  # Doe 0's second attempt (q1, q2) set aside; Roe maps nothing
    assert data["items"][q1.id]["n"] == 3 and data["items"][q1.id]["facility"] == pytest.approx(2 / 3, abs=1e-4)
    assert data["items"][q2.id]["n"] == 3 and data["items"][q2.id]["facility"] == pytest.approx(1 / 3, abs=1e-4)  # the blank "-" counts, wrong
    assert "is not the stem of any question of this exam" in err and "'not an option at all' is not the text of an option" in err
    assert f"{kit.ESSAY} is an essay" in err


def test_a_statistics_download_tells_a_responses_report_its_slots(exam):
    root, view = exam
    q1 = _q(view, kit.qid(0))
    stats = _write(root / "statistics.csv", [["Quiz name", "Course name"], ["Quiz", "Course"],
                                              ["Q#", "Question type", "Question name", "Attempts", "Facility index", "Discrimination index"],
                                              ["1", "Multiple choice", f"{q1.id}: {q1.stem_md}", "2", "50.00%", "30.00%"]])
    responses = _write(root / "responses.csv", [["Last name", "First name", "State", "Started on", "Response 1", "Response 2"],
                                                 ["A", "B", "Finished", "", next(o.text_md for o in kit.options(q1) if o.correct), "x"],
                                                 ["C", "D", "Finished", "", next(o.text_md for o in kit.options(q1) if not o.correct), "y"]])
    code, err = _stats(root, responses, stats)
    assert code == 0, err
    data = json.loads((root / "sources" / "stats-demo" / "item-stats.json").read_text())
    assert data["items"][q1.id]["source"] == "responses" and data["items"][q1.id]["facility"] == 0.5
    assert "slot 2: no 'Question 2' column to tell its question" in err


@pytest.mark.parametrize("rows, row, expected", [
    ([["a", "b", "c"], ["1", "2", "3"]], 1, "header 'a', 'b', 'c' is not one this command reads; expected one of: the plain long format"),
    ([["learner", "question_id", "response", "score", "time"], ["u1", "6.1-q01", "a", "", ""], ["u2", "6.1-q01", "a", "1.5", ""]], 3,
     "score: expected a number from 0 to 1 (or empty), got '1.5'"),
    ([["learner", "question_id", "response", "score", "time"], ["u1", "6.1-q01", "a", "", "yesterday"]], 2,
     "time: expected an ISO 8601 time such as 2026-11-29T14:03:07Z, got 'yesterday'"),
    ([["learner", "question_id", "response", "score", "time"], ["", "6.1-q01", "a", "", ""]], 2, "learner: expected an id of 1-200 characters"),
    ([["learner", "question_id", "response", "score", "time"], ["u1", "6.1-q01", "a"]], 2, "has 3 fields, expected 5"),
    ([["learner", "question_id", "response", "score", "time"], ["u1", kit.ESSAY, "my essay", "", ""]], 2,
     f"score: {kit.ESSAY} is a short answer question with no key to grade by"),
])
def test_malformed_or_foreign_csv_is_an_error_naming_file_and_row(exam, rows, row, expected):
    root, _ = exam
    good = _write(root / "good.csv", [["learner", "question_id", "response", "score", "time"], ["u9", kit.qid(0), "a", "", ""]])
    bad = _write(root / "bad.csv", rows)
    code, err = _stats(root, good, bad)
    assert code == 1
    assert f"{bad}: row {row}" in err and expected in err, err
    assert _written(root) == []


@pytest.mark.parametrize("data, expected", [
    (b'learner,question_id,response,score,time\nu1,6.1-q01,"a\n', "row 2: error: is not well-formed CSV"),
    (b"learner,question_id,response,score,time\nu1,6.1-q01,\xff\xfe,,\n", "row 2: error: is not UTF-8 text"),
    (b"", "row 1: error: is empty; expected a header row and answers"),
    (b"learner,question_id,response,score,time\nu1,6.1-q01,a\x00,,\n", "holds a NUL character"),
    (b'learner,question_id,response,score,time\nu1,6.1-q01,"' + b"x" * 100_001 + b'",,\n', "a field over the limit of 100,000 characters"),
])
def test_broken_bytes_are_an_error_and_nothing_is_written(exam, data, expected):
    root, _ = exam
    bad = root / "broken.csv"
    bad.write_bytes(data)
    code, err = _stats(root, bad)
    assert code == 1 and str(bad) in err and expected in err, err
    assert _written(root) == []


def test_rows_of_another_exam_only_write_nothing(exam):
    root, _ = exam
    other = _write(root / "other.csv", [["learner", "question_id", "response", "score", "time"], ["u1", "9.9-q1", "a", "", ""]])
    code, err = _stats(root, other)
    assert code == 1 and "no row of" in err and "maps to a question of exam 'stats-demo'" in err
    assert _written(root) == []


def test_a_folder_or_missing_file_is_named(exam):
    root, _ = exam
    code, err = _stats(root, root / "missing.csv")
    assert code == 1 and "missing.csv: row 0: error: cannot be read" in err


def test_every_code_the_statistics_raise_is_a_configurable_check():
    import re

    from pipeline.check.codes import CONFIGURABLE
    from pipeline.check.thresholds import RULES
    from pipeline.paths import ROOT

    text = (ROOT / "pipeline" / "stats" / "judge.py").read_text()
    used = set(re.findall(r'"(item-[a-z-]+)"', text))
    assert used >= set(RULES) | {"item-stats-stale"}
    assert used <= CONFIGURABLE


def test_the_qti_identifier_and_canvas_ident_map_back_to_the_question(exam):
    from pipeline.render.lms.qti21 import identifier
    from pipeline.stats.match import QuestionIndex

    root, view = exam
    index = QuestionIndex.of(view)
    assert all(index.resolve(identifier(q)) == q.id and index.resolve(q.id) == q.id for q in view.questions)
    assert index.resolve("q_9.9-q1") is None
    first = view.questions[0]
    answers = _write(root / "qti.csv", [["learner", "question_id", "response", "score", "time"], ["u1", identifier(first), next(o.id for o in kit.options(first) if o.correct), "", ""]])
    code, err = _stats(root, answers)
    assert code == 0, err
    assert json.loads((root / "sources" / "stats-demo" / "item-stats.json").read_text())["items"][first.id]["facility"] == 1.0


def test_the_exam_must_be_named_when_there_are_several_and_sound(exam):
    import shutil

    root, view = exam
    answers = _write(root / "a.csv", [["learner", "question_id", "response", "score", "time"], ["u1", kit.qid(0), "a", "", ""]])
    shutil.copytree(root / "sources" / "stats-demo", root / "sources" / "other")
    exam_file = root / "sources" / "other" / "exam.yaml"
    exam_file.write_text(exam_file.read_text().replace("id: stats-demo", "id: other"))
    code, err = _stats(root, answers)
    assert code == 2 and "say which the answers are to with --exam ID" in err
    shutil.rmtree(root / "sources" / "other")
    objective = root / "sources" / "stats-demo" / "6-performance" / "6.1-part.yaml"
    objective.write_text(objective.read_text().replace("answer: \"latency answer 1, the right one\"", "answer: \"nothing like it\""))
    code, err = _stats(root, answers)
    assert code == 1 and "has errors in its sources; fix them first (nothing written)" in err and "[question-answer]" in err
    assert _written(root) == []


SHAPES = '''id: "6.4"
title: Shapes
summary: One question of each other shape.
reviewed: 2026-11-01
key_points:
  - {id: 6.4-kp, text: Point four.}
questions:
  - id: 6.4-multi
    type: multiple
    stem: "Which of these are even?"
    options: ["2", "3", "4", "5"]
    answer: ["2", "4"]
    explanation: Two and four.
  - id: 6.4-tf
    type: true_false
    stem: "Four is even."
    answer: true
    explanation: It is.
  - id: 6.4-match
    type: matching
    stem: "Match each number with its word."
    pairs:
      - {prompt: "1", answer: one}
      - {prompt: "2", answer: two}
    explanation: Counting.
  - id: 6.4-order
    type: ordering
    stem: "Put these in increasing order."
    items: [small, medium, large]
    explanation: Size.
  - id: 6.4-number
    type: numeric
    stem: "How many GB does the model take?"
    answer: 16
    tolerance: 0.5
    unit: GB
    explanation: Sixteen.
'''


def test_every_shape_is_scored_by_the_one_grading(exam):
    """Multiple (partial credit, as in Moodle), true/false, matching, ordering and numeric answers in the long format."""
    root, _ = exam
    (root / "sources" / "stats-demo" / "6-performance" / "6.4-shapes.yaml").write_text(SHAPES, encoding="utf-8")
    view = kit.view_of(root / "sources")
    q = {x.id: x for x in view.questions}
    match = q["6.4-match"].parts[0]
    right_pairs = "|".join(f"{p.id}={p.answer_id}" for p in match.prompts)
    half_pairs = f"{match.prompts[0].id}={match.prompts[0].answer_id}|{match.prompts[1].id}={match.prompts[0].answer_id}"
    order = "|".join(q["6.4-order"].parts[0].correct_order)
    rows = [["learner", "question_id", "response", "score", "time"],
            ["u1", "6.4-multi", "a|c", "", ""], ["u2", "6.4-multi", "a", "", ""], ["u3", "6.4-multi", "a|b", "", "2026-11-30T12:00:00.000Z"],  # the site's export writes times so
            ["u1", "6.4-tf", "true", "", ""], ["u2", "6.4-tf", "false", "", ""],
            ["u1", "6.4-match", right_pairs, "", ""], ["u2", "6.4-match", half_pairs, "", ""],
            ["u1", "6.4-order", order, "", ""], ["u2", "6.4-order", "|".join(reversed(order.split("|"))), "", ""],
            ["u1", "6.4-number", "16.2 GB", "", ""], ["u2", "6.4-number", "17", "", ""], ["u3", "6.4-number", "15.6", "", ""]]
    code, err = _stats(root, _write(root / "shapes.csv", rows))
    assert code == 0, err
    items = json.loads((root / "sources" / "stats-demo" / "item-stats.json").read_text())["items"]
    # multiple: exact 1; one of two right 0.5; one right one wrong (of two wrong) 0.5 - 0.5 = 0
    assert items["6.4-multi"]["facility"] == pytest.approx((1 + 0.5 + 0) / 3, abs=1e-4)
    assert items["6.4-multi"]["options"]["a"]["count"] == 3 and items["6.4-multi"]["options"]["c"]["count"] == 1
    assert items["6.4-tf"]["facility"] == 0.5 and items["6.4-tf"]["options"]["true"]["count"] == 1
    assert items["6.4-match"]["facility"] == pytest.approx(0.75) and "options" not in items["6.4-match"]
    assert items["6.4-order"]["facility"] == 0.5
    assert items["6.4-number"]["facility"] == pytest.approx(2 / 3, abs=1e-4)  # 16.2 GB and 15.6 within 0.5; 17 not


def test_an_unmatched_reason_holding_control_characters_prints_inert(exam):
    root, _ = exam
    answers = _write(root / "esc.csv", [["learner", "question_id", "response", "score", "time"], ["u1", kit.qid(0), "a", "", ""],
                                        ["u2", "6.1-q\x1b]0;owned\x07", "a", "", ""]])
    code, err = _stats(root, answers)
    assert code == 0, err
    assert "\x1b" not in err and "\\x1b]0;owned\\x07" in err
