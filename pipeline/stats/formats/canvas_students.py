"""Canvas's Student Analysis CSV (classic quizzes: Quiz Statistics > Student Analysis).

The layout follows canvas-lms `app/models/quizzes/quiz_statistics/student_analysis.rb` (`to_csv`):
"name", "id", "sis_id" (when allowed), "root_account" (trusted accounts), "section", "section_id",
"section_sis_id", "submitted", "attempt" (when every attempt is included); then per question two columns,
"<Canvas question id>: <question text, tags stripped>" holding the response and one headed by the
question's points holding the points earned; then "n correct", "n incorrect", "score". A multiple-choice
response is the chosen answer's text; a multiple-answers one joins the chosen texts with "," and writes a
comma inside a text as "\\,". Questions are found by their text; scores are points over the points
possible. Both cells empty: the submission did not show that question.
"""

from __future__ import annotations

import datetime as dt
import re

from pipeline.stats import responses, timeparse
from pipeline.stats.columns import Column, canonical, find
from pipeline.stats.csvfile import Record, Table
from pipeline.stats.match import ItemKey, QuestionIndex
from pipeline.stats.records import Answer, Parsed, Unmatched

NAME = "canvas-student-analysis"
TITLE = "Canvas's student analysis"
LAST = ["n correct", "n incorrect", "score"]
_QUESTION = re.compile(r"^(\d+): ?(.*)$", re.DOTALL)
_SPLIT = re.compile(r"(?<!\\),")


COLUMNS = (Column("the section", ("section",)), Column("the submission time", ("submitted",)),
           Column("the count of right answers", ("n correct",)), Column("the count of wrong answers", ("n incorrect",)),
           Column("the score", ("score",)))


def detects(header: list[str]) -> bool:
    return [canonical(h) for h in header[-3:]] == LAST and find(header, COLUMNS).complete


def _questions(table: Table, index: QuestionIndex, parsed: Parsed) -> list[tuple[int, str | None, float]]:
    """(response column, question id or None, points possible) per question column pair."""
    found, header = [], table.header
    for i, name in enumerate(header[:-3]):
        m = _QUESTION.match(name.strip())
        if not m or i + 1 >= len(header) - 3:
            continue
        try:
            points = float(header[i + 1])
        except ValueError:
            continue
        qid, why = index.by_stem(m.group(2))
        if qid is None:
            parsed.unmatched.append(Unmatched(table.path, 1, f"column {i + 1} (Canvas question {m.group(1)}): {why}"))
        found.append((i, qid, points))
    if not found:
        raise table.error(table.records[0], "has no question columns ('<id>: <question text>' followed by the points possible)")
    return found


def parse(table: Table, index: QuestionIndex, context: dict) -> Parsed:
    parsed = Parsed(table.path, NAME, rows=len(table.records) - 1)
    col = {canonical(h): i for i, h in enumerate(table.header)}  # "Name" and "name" alike
    questions = _questions(table, index, parsed)
    for record in table.records[1:]:
        if len(record.cells) != len(table.header):
            raise table.error(record, f"has {len(record.cells)} fields, expected {len(table.header)} as in the header")
        learner = _learner(record, col)
        when, order = _when(record, col)
        for i, qid, points in questions:
            if qid is not None:
                _answer(table, record, learner, (when, order), index.keys[qid], record.cells[i], record.cells[i + 1], points, parsed)
    return parsed


def _learner(record: Record, col: dict[str, int]) -> str:
    for name in ("id", "name"):
        if name in col and record.cells[col[name]].strip():
            return record.cells[col[name]].strip()
    return f"anonymous row {record.number}"


def _when(record: Record, col: dict[str, int]) -> tuple[dt.datetime | None, int]:
    """(time, order): with an "attempt" column the attempt number orders a learner's rows, else the submit time."""
    if "attempt" in col and record.cells[col["attempt"]].strip().isdigit():
        return None, int(record.cells[col["attempt"]]) * 10_000_000 + record.number
    try:
        return timeparse.iso(record.cells[col["submitted"]].strip().replace(" UTC", "+00:00")), record.number
    except ValueError:
        return None, record.number


def _answer(table, record, learner, when, key: ItemKey, response: str, earned: str, points: float, parsed: Parsed) -> None:
    if not response.strip() and not earned.strip():
        return
    try:
        score = min(1.0, max(0.0, float(earned) / points)) if points > 0 else 0.0
    except ValueError:
        raise table.error(record, f"{key.id}: expected the points earned (a number), got {earned!r}") from None
    choices = None
    if key.is_choice:
        try:
            texts = [t.replace("\\,", ",") for t in _SPLIT.split(response)] if key.rule.get("multiple") else [response]
            choices = responses.choices_from_texts(key, [t for t in texts if t.strip()]) if response.strip() else ()
        except responses.ResponseError as exc:
            parsed.unmatched.append(Unmatched(table.path, record.number, str(exc)))
            return
    parsed.answers.append(Answer(learner, key.id, response, choices, score, when[0], when[1], table.path.name))
