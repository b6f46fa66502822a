"""`true_false`: a statement that is true or false. Its two options are always True then False."""

from __future__ import annotations

from pipeline.questions.base import Choice, Problem, QuestionType, unused_fields
from schema.models import Question


def check(q: Question) -> list[Problem]:
    problems = unused_fields(q, frozenset({"answer"}))
    if not isinstance(q.answer, bool):
        problems.append((("answer",), f"a true_false question's answer must be true or false, got {q.answer!r}", "question-answer"))
    return problems


def choices(q: Question) -> list[Choice]:
    return [Choice("true", "True", q.answer is True), Choice("false", "False", q.answer is False)]


TYPE = QuestionType("true_false", "True or false?", frozenset({"answer"}), "right when the true/false choice matches", check, choices,
                    answer_md=lambda q: "True" if q.answer is True else "False")
