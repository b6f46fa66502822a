"""`ordering`: 3-8 items written in their correct order and shown shuffled. Items get ids i1, i2... in correct order."""

from __future__ import annotations

from pipeline.questions.base import Problem, QuestionType, count_between, distinct, unused_fields
from schema.models import Question

FIELDS = frozenset({"items"})


def check(q: Question) -> list[Problem]:
    return unused_fields(q, FIELDS) + count_between(q, "items", 3, 8) + distinct(q.items, "items", "item")


TYPE = QuestionType("ordering", "Put these in the right order.", FIELDS, "right when every item is in its place", check)
