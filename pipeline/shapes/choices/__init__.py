"""`choices`: pick the right option, or several (QTI's choiceInteraction). Response: the option ids chosen.

Score: one right: 1 or 0; several right: each right option chosen adds 1/right, each wrong one takes
1/wrong, never below 0 (right only when exactly the right ones are chosen, as in Moodle).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from pipeline.shapes.grading import Verdict
from pipeline.shapes.registry import OneKey, Shape


@dataclass(frozen=True)
class Option:
    """One choice, in display order. `id` is stable (a, b, c... by source position; true/false)."""

    id: str
    text_md: str
    correct: bool
    letter: str  # A, B, C... by display position: what a reader refers to


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


def rule(part: Choices) -> dict:
    return {"shape": "choices", "multiple": part.multiple, "correct": [o.id for o in part.correct], "options": [o.id for o in part.options]}


def grade(data: dict, response: object) -> Verdict:
    correct, picked = data["correct"], set(response)
    right_count, wrong_count = len(picked & set(correct)), len(picked - set(correct))
    exact = right_count == len(correct) and wrong_count == 0
    if not data["multiple"]:
        return Verdict(1.0 if exact else 0.0, exact)
    wrong_options = len(data["options"]) - len(correct)
    # one integer fraction, one division: the same float as templates/site/grade.js computes
    score = ((right_count * wrong_options - wrong_count * len(correct)) / (len(correct) * wrong_options) if wrong_options
             else right_count / len(correct))
    return Verdict(max(0.0, score), exact)


def one_key(part: Choices) -> OneKey | None:
    """A one-answer part's options and its key's place (None when several may be right)."""
    if part.multiple:
        return None
    place = next(i for i, o in enumerate(part.options) if o.correct)
    return OneKey(tuple(o.text_md for o in part.options), tuple(o.letter for o in part.options), place,
                  drawn=not part.true_false and not part.numeric)


SHAPE = Shape(
    "choices", Choices, rule, grade, right_answers=lambda part: [o.text_md for o in part.correct],
    writers={"bank": "pipeline.shapes.choices.outputs.bank:write", "guide": "pipeline.shapes.choices.outputs.guide:write",
             "anki_front": "pipeline.shapes.choices.outputs.anki:front", "anki_back": "pipeline.shapes.choices.outputs.anki:back",
             "moodle": "pipeline.shapes.choices.outputs.moodle:write", "qti21": "pipeline.shapes.choices.outputs.qti21:write",
             "canvas": "pipeline.shapes.choices.outputs.canvas:write", "gift": "pipeline.shapes.choices.outputs.gift:write",
             "stats_key": "pipeline.shapes.choices.outputs.stats:fields", "stats_read": "pipeline.shapes.choices.outputs.stats:read"},
    docs="pick one option, or several",
    extra={"option_stats": True, "one_key": one_key},
    rank=1,
)
