"""`sequence`: put items in order (QTI's orderInteraction). Response: the item ids, in the order given.

Score: 1 when every item is in its place, else 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from pipeline.shapes.grading import Verdict
from pipeline.shapes.pairs import Item
from pipeline.shapes.registry import Reason, Shape


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


def rule(part: Sequence) -> dict:
    return {"shape": "sequence", "order": list(part.correct_order)}


def grade(data: dict, response: object) -> Verdict:
    right = list(response) == data["order"]
    return Verdict(1.0 if right else 0.0, right)


SHAPE = Shape(
    "sequence", Sequence, rule, grade, right_answers=lambda part: [i.text_md for i in part.items],
    writers={"bank": "pipeline.shapes.sequence.outputs.bank:write", "guide": "pipeline.shapes.sequence.outputs.guide:write",
             "anki_front": "pipeline.shapes.sequence.outputs.anki:front", "anki_back": "pipeline.shapes.sequence.outputs.anki:back",
             "moodle": "pipeline.shapes.sequence.outputs.moodle:write", "qti21": "pipeline.shapes.sequence.outputs.qti21:write",
             "canvas": Reason("Canvas classic quizzes have no ordering question; use qti21.zip or moodle.xml"),
             "gift": Reason("GIFT has no ordering question; use moodle.xml (Moodle 4.4+) or qti21.zip"),
             "stats_key": "pipeline.shapes.sequence.outputs.stats:fields", "stats_read": "pipeline.shapes.sequence.outputs.stats:read"},
    docs="put items in order",
    rank=4,
)
