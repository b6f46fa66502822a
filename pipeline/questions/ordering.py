"""`ordering`: 3-8 items written in their correct order and shown shuffled (`sequence`), never in the
correct order (that would answer it). Items get ids i1, i2... in correct order."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from pipeline.questions.base import Problem, QuestionBase, QuestionType, count_between, distinct
from pipeline.shapes.order import LETTERS, display_order
from pipeline.shapes.parts import Item, Sequence
from pipeline.vocabulary.fields import Text


class OrderingQuestion(QuestionBase):
    """Put these in the right order: 3-8 `items`, written in their correct order."""

    type: Literal["ordering"] = Field(description="ordering: put the items in their correct order.")
    items: list[Text] = Field(description="The items, in their correct order (3-8).")
    shuffle: bool = Field(default=True, description="Show the items shuffled (seeded by the id); false keeps the author's order, which must then not be the correct one.")


def parts(q: OrderingQuestion) -> tuple[Sequence]:
    items = [Item(f"i{i}", text, "") for i, text in enumerate(q.items, start=1)]
    shown = _not_in_order(q, items)
    return (Sequence(tuple(Item(it.id, it.text_md, LETTERS[i]) for i, it in enumerate(shown)), tuple(it.id for it in items)),)


def _not_in_order(q: OrderingQuestion, items: list[Item]) -> list[Item]:
    """A shuffle that does not happen to show the correct order."""
    for attempt in range(16):
        shown = display_order(f"{q.id}#{attempt}" if attempt else q.id, items, [False] * len(items), shuffle=q.shuffle)
        if shown != items or not q.shuffle:
            return shown
    return items[1:] + items[:1]


def check(q: OrderingQuestion) -> list[Problem]:
    return count_between(q, "items", 3, 8) + distinct(q.items, "items", "item")


TYPE = QuestionType("ordering", OrderingQuestion, "Put these in the right order.", "right when every item is in its place",
                    parts, check, answer_words=lambda q: " ".join(q.items), rank=6)
