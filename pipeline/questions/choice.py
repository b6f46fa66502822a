"""`single` and `multiple`: pick the correct option(s) among 2-6. Options get ids a, b, c... by source position."""

from __future__ import annotations

import string

from pipeline.questions.base import Choice, Problem, QuestionType, count_between, describe, did_you_mean, distinct, unused_fields
from pipeline.shapes.order import numeric_order
from schema.models import Question

FIELDS = frozenset({"options", "answer", "order"})


def choices(q: Question) -> list[Choice]:
    right = set(q.answer) if isinstance(q.answer, list) else {q.answer}
    return [Choice(letter, text, text in right) for letter, text in zip(string.ascii_lowercase, q.options, strict=False)]


def _answers(q: Question, where: tuple, answers: list[str]) -> list[Problem]:
    problems = []
    for i, answer in enumerate(answers):
        if answer not in q.options:
            at = where + (i,) if q.type == "multiple" else where
            hint = did_you_mean(answer, q.options)
            problems.append((at, f"{answer!r} is not one of the options{hint} ({'; '.join(map(repr, q.options))})", "question-answer"))
    return problems


def _order(q: Question) -> list[Problem]:
    if q.order == "numeric" and numeric_order(q.options) is None:
        return [(("order",), "order: numeric needs every option to be a number in one unit (\"2\", \"4\", \"8\"; \"5%\", \"30%\"); remove it or make the options numbers", "question-options")]
    return []


def check_single(q: Question) -> list[Problem]:
    problems = unused_fields(q, FIELDS) + count_between(q, "options", 2, 6) + distinct(q.options, "options", "option") + _order(q)
    if not isinstance(q.answer, str):
        return [*problems, (("answer",), f"a single question's answer must be the text of one of its options, got {describe(q.answer)}", "question-answer")]
    return problems + _answers(q, ("answer",), [q.answer])


def check_multiple(q: Question) -> list[Problem]:
    problems = unused_fields(q, FIELDS) + count_between(q, "options", 2, 6) + distinct(q.options, "options", "option") + _order(q)
    if not isinstance(q.answer, list):
        return [*problems, (("answer",), f"a multiple question's answer must be a list of the correct options' texts, got {describe(q.answer)}", "question-answer")]
    if not q.answer:
        problems.append((("answer",), "a multiple question needs at least one correct option", "question-answer"))
    if len(set(q.answer)) != len(q.answer):
        problems.append((("answer",), "the same option is listed twice among the answers", "question-answer"))
    return problems + _answers(q, ("answer",), q.answer)


SINGLE = QuestionType("single", "Choose one.", FIELDS, "right when the one correct option is chosen", check_single, choices)
MULTIPLE = QuestionType("multiple", "Choose all that apply.", FIELDS,
                        "right when exactly the correct options are chosen; LMS exports give each correct option an equal share",
                        check_multiple, choices)
