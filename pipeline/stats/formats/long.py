"""The plain long format, `learner,question_id,response,score,time` (the README defines it; the study
site's progress export writes it): one row per answer, in the bank's ids."""

from __future__ import annotations

from pipeline.stats import grading, timeparse
from pipeline.stats.csvfile import Record, Table
from pipeline.stats.match import QuestionIndex
from pipeline.stats.records import Answer, Parsed, Unmatched

NAME = "long"
TITLE = "the plain long format"
HEADER = ["learner", "question_id", "response", "score", "time"]
MAX_LEARNER = 200


def detects(header: list[str]) -> bool:
    return [h.strip().lower() for h in header] == HEADER


def parse(table: Table, index: QuestionIndex, context: dict) -> Parsed:
    parsed = Parsed(table.path, NAME, rows=len(table.records) - 1)
    for record in table.records[1:]:
        answer = _answer(table, record, index, parsed)
        if answer is not None:
            parsed.answers.append(answer)
    return parsed


def _answer(table: Table, record: Record, index: QuestionIndex, parsed: Parsed) -> Answer | None:
    if len(record.cells) != len(HEADER):
        raise table.error(record, f"has {len(record.cells)} fields, expected {len(HEADER)} ({','.join(HEADER)})")
    learner, qid, response, score_text, time_text = (cell.strip() for cell in record.cells)
    if not learner or len(learner) > MAX_LEARNER:
        raise table.error(record, f"learner: expected an id of 1-{MAX_LEARNER} characters, got {len(learner)}")
    if not qid:
        raise table.error(record, "question_id: expected a question id, got an empty field")
    score = _score(table, record, score_text) if score_text else None
    when = _time(table, record, time_text) if time_text else None
    key = index.keys.get(qid) or index.keys.get(index.resolve(qid) or "")
    if key is None:
        parsed.unmatched.append(Unmatched(table.path, record.number, f"question_id {qid!r} is not a question of this exam"))
        return None
    try:
        choices, graded = grading.grade_ids(key, response) if response else ((() if key.is_choice else None), 0.0)
    except grading.ResponseError as exc:
        parsed.unmatched.append(Unmatched(table.path, record.number, str(exc)))
        return None
    if score is None and graded is None:
        raise table.error(record, f"score: {qid} is a {key.type.replace('_', ' ')} question with no key to grade by; give a score from 0 to 1")
    return Answer(learner, key.id, response, choices, score if score is not None else graded, when, record.number, table.path.name)


def _score(table: Table, record: Record, text: str) -> float | None:
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 <= value <= 1.0:
        raise table.error(record, f"score: expected a number from 0 to 1 (or empty), got {text!r}")
    return value


def _time(table: Table, record: Record, text: str):
    try:
        return timeparse.iso(text)
    except ValueError as exc:
        raise table.error(record, f"time: expected an ISO 8601 time such as 2026-11-29T14:03:07Z, got {text!r} ({exc})") from None
