"""Question types as plug-ins: one module per type, listed here.

A type declares its source fields, its offline checks, how it is answered and scored
(`pipeline/questions/base.py`). Adding a type: a module here, a line in TYPES, its name in
schema/models.py `QuestionType`, and its templates in every output (tests/test_question_types.py
names what is missing).
"""

from __future__ import annotations

from pipeline.questions import choice, matching, ordering, short_answer, true_false
from pipeline.questions.base import Choice, Problem, QuestionType

TYPES: dict[str, QuestionType] = {
    t.name: t for t in (choice.SINGLE, choice.MULTIPLE, true_false.TYPE, short_answer.TYPE, matching.TYPE, ordering.TYPE)
}


def type_of(name: str) -> QuestionType:
    return TYPES[name]


__all__ = ["TYPES", "Choice", "Problem", "QuestionType", "type_of"]
