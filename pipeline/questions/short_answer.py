"""`short_answer`: a written answer, compared with a model answer (generated fill-ins also list accepted answers)."""

from __future__ import annotations

from pipeline.questions.base import Problem, QuestionType, unused_fields
from schema.models import Question


def check(q: Question) -> list[Problem]:
    problems = unused_fields(q, frozenset({"answer"}))
    if not isinstance(q.answer, str):
        problems.append((("answer",), f"a short_answer question's answer must be the model answer as text, got {q.answer!r}", "question-answer"))
    return problems


TYPE = QuestionType("short_answer", "Answer in a sentence or two.", frozenset({"answer"}),
                    "graded by comparing with the model answer; fill-ins accept their listed answers (case, whitespace and punctuation ignored)",
                    check, answer_md=lambda q: q.answer if isinstance(q.answer, str) else None)
