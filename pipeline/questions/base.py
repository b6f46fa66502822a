"""What a question type declares, and what every type's source model shares.

A type is one module beside this one holding `TYPE = QuestionType(...)`: its source model (a pydantic
model whose `type` field is a one-value Literal, so `Question` can be a union told apart by `type`), its
checks beyond the schema, the prompt a learner reads, how it is scored (in a sentence), and `parts`,
which turns a question into the interaction shapes of pipeline/shapes/parts.py that the view carries and
every renderer writes. `pipeline/questions/__init__.py` finds the modules; nothing else lists types.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, NamedTuple

from pydantic import Field

from pipeline.shapes.parts import Part
from pipeline.vocabulary.fields import ItemId, Markdown, Strict
from pipeline.vocabulary.variant_fields import Variants


class Problem(NamedTuple):
    """A problem with a question, found by its type's `check`: reported at the question's node plus `at`."""

    at: tuple  # the path below the question's node, e.g. ("answer",) or ("options", 2)
    message: str
    code: str  # the check's code (pipeline/check/codes.py)


class QuestionBase(Strict):
    """The fields every practice question has, whatever its type."""

    id: ItemId = Field(description="Stable id, unique in the exam (e.g. 6.1-q1).")
    type: str = Field(description="The question's type; it decides which other fields the question takes.")
    stem: Markdown = Field(description="The question, in Markdown.")
    explanation: Markdown = Field(description="Why the answer is right, in Markdown.")
    difficulty: Literal["easy", "medium", "hard"] = Field(default="medium", description="How hard the question is.")
    key_points: list[ItemId] = Field(default_factory=list, description="Ids of the key points (any objective of the exam) whose citations back this question.")
    mock_only: bool = Field(
        default=False,
        description="Held out for mock exams: left out of practice (objective and practice pages, review, the deck) so the site's mock exam, which draws these first, and the guide's practice exam ask something the learner has not rehearsed.",
    )
    variants: Variants | None = Field(
        default=None,
        description="The question is a template: `{{ name }}` in its text stands for a value each variant draws, from `code:` (generate(seed), run by `variants`) or `values:` lists; `count:` variants are built.",
    )


@dataclass(frozen=True)
class QuestionType:
    """A question type: everything the pipeline knows of it, in one place."""

    name: str
    model: type[QuestionBase]  # its source model; `type: Literal[name]`
    prompt: str  # the instruction a learner reads ("Choose one.")
    scoring: str  # how an answer is scored, in a sentence (for the docs and the exports' notes)
    parts: Callable[[QuestionBase], tuple[Part, ...]]  # the shapes it shows, settled (display order seeded by the id)
    check: Callable[[QuestionBase], list[Problem]] = lambda q: []  # offline rules beyond the schema
    answer_md: Callable[[QuestionBase, tuple[Part, ...]], str] | None = None  # the answer as text; default: the parts'
    answer_words: Callable[[QuestionBase], str] = lambda q: ""  # the right answer in words, for near-duplicate checks
    prompt_of: Callable[[QuestionBase], str] | None = None  # when the instruction depends on the question
    rank: int = 100  # where the type is listed (messages, the docs, the schema): by rank, then name

    def prompt_for(self, question: QuestionBase) -> str:
        return self.prompt_of(question) if self.prompt_of is not None else self.prompt

    def answer_text(self, question: QuestionBase, parts: tuple[Part, ...]) -> str:
        """The answer as an answer key, a card back or the bank print it, in Markdown."""
        if self.answer_md is not None:
            return self.answer_md(question, parts)
        return "; ".join(part.answer_md() for part in parts)


def a_type(name: str) -> str:
    """"a single question", "an ordering question"."""
    return f"{'an' if name[0] in 'aeiou' else 'a'} {name} question"


def distinct(values: list[str], path: str, what: str) -> list[Problem]:
    seen: set[str] = set()
    problems = []
    for i, value in enumerate(values):
        if value.casefold() in seen:
            problems.append(Problem((path, i), f"{what} {value!r} is given twice; {what}s must differ", "question-options"))
        seen.add(value.casefold())
    return problems


def count_between(q: QuestionBase, name: str, low: int, high: int) -> list[Problem]:
    n = len(getattr(q, name))
    if low <= n <= high:
        return []
    return [Problem((name,), f"{a_type(q.type)} needs {low} to {high} {name.replace('_', ' ')}, got {n}", "question-options")]
