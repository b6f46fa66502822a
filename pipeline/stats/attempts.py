"""First attempts: of several answers by one learner to one question, the earliest counts (as Moodle's
statistics count first attempts by default); answers without a time come after timed ones, in file order.

The engine applies this rule in SQL (`pipeline.stats.columnar`); this is the in-memory reference of it."""

from __future__ import annotations

from pipeline.stats.records import Answer


def first_attempts(answers: list[Answer]) -> tuple[list[Answer], int]:
    """The first answer of each (learner, question), and how many later ones were set aside."""
    best: dict[tuple[str, str], Answer] = {}
    for answer in answers:
        key = (answer.learner, answer.question_id)
        if key not in best or _rank(answer) < _rank(best[key]):
            best[key] = answer
    return list(best.values()), len(answers) - len(best)  # in first-seen order: the statistics do not depend on it


def _rank(answer: Answer) -> tuple:
    return (answer.time is None, answer.time.timestamp() if answer.time else 0.0, answer.file, answer.order)
