"""The parts a question shows, in one of five interaction shapes (after QTI 2.1's interactions).

| shape      | QTI interaction            | what the learner does                      | response            |
| ---------- | -------------------------- | ------------------------------------------ | ------------------- |
| `choices`  | choiceInteraction          | picks one option, or several               | option ids          |
| `text`     | textEntry / extendedText   | writes a word, a phrase or a paragraph     | text                |
| `pairs`    | matchInteraction           | matches each prompt with an answer         | prompt id -> answer |
| `sequence` | orderInteraction           | puts items in order                        | item ids, in order  |
| `numeric`  | textEntry (float), a range | gives a number, within a tolerance         | text of a number    |

A question type (pipeline/questions/) turns its source into a tuple of parts; every renderer writes these
shapes and never a type's name. Everything is settled here: display order (a shuffle seeded by the
question's id), display letters, correct answers and the grading facts. Text fields ending `_md` are
Markdown from the sources; renderers escape or render them at their edge.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar


@dataclass(frozen=True)
class Option:
    """One choice, in display order. `id` is stable (a, b, c... by source position; true/false)."""

    id: str
    text_md: str
    correct: bool
    letter: str  # A, B, C... by display position: what a reader refers to


@dataclass(frozen=True)
class Prompt:
    """A matching prompt, in the author's order, with the id of the answer that matches it."""

    id: str  # p1, p2... by source position
    text_md: str
    answer_id: str


@dataclass(frozen=True)
class Item:
    """A matching answer or a sequence item, in display order; `letter` is its display position."""

    id: str  # matching answers m1, m2... (the pairs' answers, then the extras); sequence items i1.. in correct order
    text_md: str
    letter: str


@dataclass(frozen=True)
class Choices:
    """Pick the right option(s). `multiple`: any number may be right (choose all that apply)."""

    shape: ClassVar[str] = "choices"
    options: tuple[Option, ...]  # display order
    multiple: bool = False
    true_false: bool = False  # the two options are True then False, plain words, never shuffled
    numeric: bool = False  # the options are numbers, shown in ascending order (where the answer's place says nothing)

    @property
    def correct(self) -> tuple[Option, ...]:
        return tuple(o for o in self.options if o.correct)

    def answer_md(self) -> str:
        """"B. The option" (one right) or "A. One; C. Other" (several); "True" / "False" for a statement."""
        if self.true_false:
            return self.correct[0].text_md
        return "; ".join(f"{o.letter}. {o.text_md}" for o in self.correct)


@dataclass(frozen=True)
class Text:
    """Write an answer. With `accepted` answers it is graded automatically (a fill-in); without, the
    learner compares with the model answer (self-graded on the site, an essay in an LMS)."""

    shape: ClassVar[str] = "text"
    accepted: tuple[str, ...]  # plain-text answers a grader accepts, compared by grading.answer_key
    model_answer_md: str | None  # the model answer shown after answering
    long: bool = False  # a paragraph rather than a word or phrase (an essay box, not a one-line field)

    @property
    def auto(self) -> bool:
        return bool(self.accepted)

    def answer_md(self) -> str:
        return self.model_answer_md or " / ".join(self.accepted)


@dataclass(frozen=True)
class Pairs:
    """Match each prompt with its answer; `answers` may hold more than the prompts need (distractors)."""

    shape: ClassVar[str] = "pairs"
    prompts: tuple[Prompt, ...]  # the author's order
    answers: tuple[Item, ...]  # display order

    def answer_of(self, prompt: Prompt) -> Item:
        return next(a for a in self.answers if a.id == prompt.answer_id)

    def answer_md(self) -> str:
        return "; ".join(f"{n}. {p.text_md} → {self.answer_of(p).letter}. {self.answer_of(p).text_md}"
                         for n, p in enumerate(self.prompts, start=1))


@dataclass(frozen=True)
class Sequence:
    """Put the items in order. They are shown shuffled, never in the correct order."""

    shape: ClassVar[str] = "sequence"
    items: tuple[Item, ...]  # display order
    correct_order: tuple[str, ...]  # item ids

    def in_order(self) -> tuple[Item, ...]:
        by_id = {i.id: i for i in self.items}
        return tuple(by_id[i] for i in self.correct_order)

    def answer_md(self) -> str:
        return "; ".join(f"{n}. {i.letter}. {i.text_md}" for n, i in enumerate(self.in_order(), start=1))


@dataclass(frozen=True)
class Numeric:
    """Give a number: right when within [low, high]. The bounds are computed once, exactly, from the
    numbers as written (decimal arithmetic), so every grader compares against the same two floats."""

    shape: ClassVar[str] = "numeric"
    value: float
    value_text: str  # as the author wrote it ("3.14"): what outputs print
    low: float
    high: float
    tolerance: float  # absolute, >= 0 (a relative tolerance is resolved against the value)
    tolerance_text: str  # as written: "0.01" or "2%"; "" for an exact answer
    unit: str | None = None
    # the answer is a ratio ("how many times"): "4x" and "4 times" are read as 4; derived from the stem and
    # the unit, so not part of the question's content hash
    ratio: bool = field(default=False, metadata={"content": False})

    def answer_md(self) -> str:
        unit = f" {self.unit}" if self.unit else ""
        within = f" (± {self.tolerance_text})" if self.tolerance_text else ""
        return f"{self.value_text}{unit}{within}"


Part = Choices | Text | Pairs | Sequence | Numeric
SHAPES: tuple[type, ...] = (Choices, Text, Pairs, Sequence, Numeric)
SHAPE_NAMES = tuple(s.shape for s in SHAPES)
