"""`matching`: 2-8 prompts, each to be matched with its answer; extra wrong answers may be offered.

Pairs get ids p1, p2... and answers m1, m2... by source position (the pairs' answers, then the extras).
"""

from __future__ import annotations

from pipeline.questions.base import Problem, QuestionType, count_between, distinct, unused_fields
from schema.models import Question

FIELDS = frozenset({"pairs", "extra_answers"})


def answer_texts(q: Question) -> list[str]:
    return [p.answer for p in q.pairs] + list(q.extra_answers)


def check(q: Question) -> list[Problem]:
    problems = unused_fields(q, FIELDS) + count_between(q, "pairs", 2, 8)
    problems += distinct([p.prompt for p in q.pairs], "pairs", "prompt")
    answers = answer_texts(q)
    seen: set[str] = set()
    for i, text in enumerate(answers):
        if text.casefold() in seen:
            at = ("pairs", i, "answer") if i < len(q.pairs) else ("extra_answers", i - len(q.pairs))
            problems.append((at, f"answer {text!r} is given twice; every answer of a matching question must differ", "question-answer"))
        seen.add(text.casefold())
    return problems


TYPE = QuestionType("matching", "Match each item with its answer.", FIELDS,
                    "each prompt matched with its answer scores an equal share", check)
