"""Display order of a question's options: a shuffle seeded by the question's id.

The same id gives the same order in every build and every output, and changing one question never
reorders another. `shuffle: false` on a question keeps the author's order (for "All of the above").
A multiple-choice question never shows all its correct options first: the shuffle is drawn again, from
the next seed, until it does not (when the question has a wrong option at all).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")
LETTERS = "ABCDEFGHIJ"


def display_order(question_id: str, items: Sequence[T], correct: Sequence[bool], *, shuffle: bool = True, multiple: bool = False) -> list[T]:
    if not shuffle or len(items) < 2:
        return list(items)
    for attempt in range(16):
        order = list(range(len(items)))
        random.Random(f"{question_id}#{attempt}" if attempt else question_id).shuffle(order)
        if not (multiple and _correct_first(order, correct)):
            break
    return [items[i] for i in order]


def _correct_first(order: list[int], correct: Sequence[bool]) -> bool:
    """Whether the correct options fill the first places (and a wrong one exists to put before them)."""
    n = sum(correct)
    return 0 < n < len(correct) and all(correct[i] for i in order[:n])
