"""What `single` and `multiple` share: options with ids a, b, c... by source position, shown as the
`choices` shape in a shuffle seeded by the question's id (pipeline/shapes/order.py) unless `shuffle: false`,
and answers that must be among the options. (A module of helpers, not a type: its name starts with `_`.)
"""

from __future__ import annotations

import string

from pipeline.questions.base import Problem, count_between, distinct
from pipeline.shapes.order import LETTERS, display_order, numeric_order
from pipeline.shapes.parts import Choices, Option
from pipeline.text.messages import did_you_mean


def _right(q) -> set[str]:
    return set(q.answer) if isinstance(q.answer, list) else {q.answer}


def parts(q) -> tuple[Choices]:
    """The options shown shuffled, or in ascending numerical order when they are all numbers (the
    guideline: numbers in numerical order; `order: numeric` says so, and options that all read as numbers
    get it without asking)."""
    right = _right(q)
    options = [Option(letter, text, text in right, "") for letter, text in zip(string.ascii_lowercase, q.options, strict=False)]
    numeric = numeric_order(q.options)
    if numeric is not None:
        shown = [options[i] for i in numeric]
    else:
        shown = display_order(q.id, options, [o.correct for o in options], shuffle=q.shuffle, multiple=q.type == "multiple")
    lettered = tuple(Option(o.id, o.text_md, o.correct, LETTERS[i]) for i, o in enumerate(shown))
    return (Choices(lettered, multiple=q.type == "multiple", numeric=numeric is not None),)


def answers_among_options(q, answers: list[str]) -> list[Problem]:
    problems = []
    for i, answer in enumerate(answers):
        if answer not in q.options:
            at = ("answer", i) if q.type == "multiple" else ("answer",)
            hint = did_you_mean(answer, q.options)
            problems.append(Problem(at, f"{answer!r} is not one of the options{hint} ({'; '.join(map(repr, q.options))})", "question-answer"))
    return problems


def option_rules(q) -> list[Problem]:
    """2-6 options, all different (case does not make them differ); `order: numeric` only over numbers."""
    problems = count_between(q, "options", 2, 6) + distinct(q.options, "options", "option")
    if q.order == "numeric" and numeric_order(q.options) is None:
        problems.append(Problem(("order",), "order: numeric needs every option to be a number in one unit (\"2\", \"4\", \"8\"; \"5%\", \"30%\"); "
                         "remove it or make the options numbers", "question-options"))
    return problems


def answer_words(q) -> str:
    return " ".join(q.answer) if isinstance(q.answer, list) else q.answer
