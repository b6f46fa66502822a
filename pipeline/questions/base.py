"""What a question type declares: its source fields, its offline checks, how it is answered and scored.

Every type is one module beside this one holding a `TYPE = QuestionType(...)`; `pipeline/questions/__init__.py`
lists them. Outputs declare which types they render (tests/test_question_types.py walks the registry and
fails when an output lacks one).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass, field

from pipeline.load.schema_errors import describe
from schema.models import Question

__all__ = ["describe", "did_you_mean"]  # message helpers the type modules share


def did_you_mean(wrong: str, choices: list[str]) -> str:
    """"; did you mean 'x'?" for the closest of `choices`, or nothing when none is close."""
    guess = difflib.get_close_matches(wrong, sorted(choices), n=1, cutoff=0.6)
    return f"; did you mean '{guess[0]}'?" if guess else ""

# A problem with a question: the path below the question's node, the message, and the check's code.
Problem = tuple[tuple, str, str]
FIELDS = ("options", "answer", "pairs", "extra_answers", "items", "order")  # the type-specific source fields


@dataclass(frozen=True)
class Choice:
    """An option in the author's order, with its stable id."""

    id: str
    text_md: str
    correct: bool


@dataclass(frozen=True)
class QuestionType:
    name: str
    prompt: str  # the instruction a learner reads ("Choose one.")
    fields: frozenset[str]  # which of FIELDS the type takes; the others must be left out
    scoring: str  # how an answer is scored, in a sentence (for the README and exports' notes)
    check: Callable[[Question], list[Problem]]  # offline rules beyond the schema
    choices: Callable[[Question], list[Choice]] = lambda q: []  # options with ids and correctness, source order
    answer_md: Callable[[Question], str | None] = lambda q: None  # a model answer or "True"/"False"
    accepted: Callable[[Question], tuple[str, ...]] = lambda q: ()  # answers an automatic grader accepts
    extra_fields: tuple[str, ...] = field(default=())


def a_type(name: str) -> str:
    """"a single question", "an ordering question"."""
    return f"{'an' if name[0] in 'aeiou' else 'a'} {name} question"


def unused_fields(q: Question, allowed: frozenset[str]) -> list[Problem]:
    """A field this type does not take, given anyway, is an error: it would be silently ignored."""
    return [((name,), f"{a_type(q.type)} takes no {name}; remove {'them' if name.endswith('s') else 'it'}", "question-options") for name in FIELDS
            if name not in allowed and getattr(q, name) not in (None, [], ())]


def distinct(values: list[str], path: str, what: str) -> list[Problem]:
    seen: set[str] = set()
    problems = []
    for i, value in enumerate(values):
        if value.casefold() in seen:
            problems.append(((path, i), f"{what} {value!r} is given twice; {what}s must differ", "question-options"))
        seen.add(value.casefold())
    return problems


def count_between(q: Question, name: str, low: int, high: int) -> list[Problem]:
    n = len(getattr(q, name))
    if low <= n <= high:
        return []
    return [((name,), f"{a_type(q.type)} needs {low} to {high} {name.replace('_', ' ')}, got {n}", "question-options")]
