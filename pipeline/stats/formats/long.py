"""The plain long format, `learner,question_id,response,score,time` (the documentation's 'Item statistics' page defines it; the study
site's progress export writes it; a data warehouse exports it as Parquet or JSON Lines): one row per answer,
in the bank's ids.

The engine reads these files (`pipeline.stats.intake`); the functions here are the rules it follows, kept in
Python for the messages: `grade` scores a distinct (question, response) once, `check` walks a CSV record by
record and raises the first bad row exactly as before the engine, `check_row` does so for one row of a file
of another kind.
"""

from __future__ import annotations

from pathlib import Path

from pipeline.stats import csvstream, responses, timeparse
from pipeline.stats.columns import Column
from pipeline.stats.csvfile import Table
from pipeline.stats.match import QuestionIndex
from pipeline.stats.records import Answer, Parsed, StatsInputError, Unmatched

NAME = "long"
TITLE = "the plain long format"
HEADER = ["learner", "question_id", "response", "score", "time"]
MAX_LEARNER = 200
COLUMNS = tuple(Column(name, (name,)) for name in HEADER)  # for the near-miss message: this layout is one exact header


def detects(header: list[str]) -> bool:
    return [h.strip().lower() for h in header] == HEADER


def parse(table: Table, index: QuestionIndex, context: dict) -> Parsed:
    parsed = Parsed(table.path, NAME, rows=len(table.rows) - 1)
    graded: dict[tuple[str, str], tuple] = {}  # (question, response) -> (key, choices, score): a million rows hold few pairs
    for number, cells in enumerate(table.rows[1:], start=2):  # bare rows, not records: this file may hold a million
        answer = _answer(table, number, cells, index, parsed, graded)
        if answer is not None:
            parsed.answers.append(answer)
    return parsed


class _Rows:
    """What `_answer` needs of a file read record by record: its path, and errors naming the row and its line."""

    def __init__(self, path: Path) -> None:
        self.path, self.line = path, None

    def error(self, number: int, message: str) -> StatsInputError:
        return StatsInputError(self.path, number, message, self.line)


def check(path: Path, index: QuestionIndex) -> None:
    """Raise the first problem of a long-format CSV, as reading it whole did (nothing is kept)."""
    rows, graded = _Rows(path), {}
    for record in csvstream.records(path):
        if record.number == 1:
            continue
        rows.line = record.line
        scratch = Parsed(path, NAME)
        _answer(rows, record.number, record.cells, index, scratch, graded)


def check_row(path: Path, number: int, cells: list[str], index: QuestionIndex) -> None:
    """Raise the problem of one row (of a Parquet or JSON Lines file, numbered from 1), if it has one."""
    _answer(_Rows(path), number, cells, index, Parsed(path, NAME), {})


def grade(index: QuestionIndex, qid: str, response: str) -> tuple:
    return _grade(index, qid, response)


def _grade(index: QuestionIndex, qid: str, response: str) -> tuple:
    """(key, choices, score) for a response in the bank's ids; (None, reason, None) when it maps to nothing."""
    key = index.keys.get(qid) or index.keys.get(index.resolve(qid) or "")
    if key is None:
        return None, f"question_id {qid!r} is not a question of this exam", None
    if not response:  # seen and left blank: no marks, whatever the type
        return key, (() if key.is_choice else None), 0.0
    try:
        choices, given = responses.from_ids(key, response)
    except responses.ResponseError as exc:
        return None, str(exc), None
    return key, choices, responses.score(key, given)


def _answer(table: Table | _Rows, number: int, cells: list[str], index: QuestionIndex, parsed: Parsed, graded: dict) -> Answer | None:
    if len(cells) != len(HEADER):
        raise table.error(number, f"has {len(cells)} fields, expected {len(HEADER)} ({','.join(HEADER)})")
    learner, qid, response, score_text, time_text = cells
    learner, qid, response, score_text, time_text = learner.strip(), qid.strip(), response.strip(), score_text.strip(), time_text.strip()
    if not learner or len(learner) > MAX_LEARNER:
        raise table.error(number, f"learner: expected an id of 1-{MAX_LEARNER} characters, got {len(learner)}")
    if not qid:
        raise table.error(number, "question_id: expected a question id, got an empty field")
    score = _score(table, number, score_text) if score_text else None
    when = _time(table, number, time_text) if time_text else None
    pair = (qid, response)
    if pair not in graded:
        graded[pair] = _grade(index, qid, response)
    key, choices, by_key = graded[pair]
    if key is None:
        parsed.unmatched.append(Unmatched(table.path, number, choices))
        return None
    if score is None and by_key is None:
        raise table.error(number, f"score: {qid} is a {key.type.replace('_', ' ')} question with no key to grade by; give a score from 0 to 1")
    return Answer(learner, key.id, response, choices, score if score is not None else by_key, when, number, table.path.name)


def _score(table: Table | _Rows, number: int, text: str) -> float | None:
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 <= value <= 1.0:
        raise table.error(number, f"score: expected a number from 0 to 1 (or empty), got {text!r}")
    return value


def _time(table: Table | _Rows, number: int, text: str):
    try:
        return timeparse.iso(text)
    except ValueError as exc:
        raise table.error(number, f"time: expected an ISO 8601 time such as 2026-11-29T14:03:07Z, got {text!r} ({exc})") from None
