"""Display order of a question's options: a shuffle seeded by the question's id.

Each option's place comes from a hash of (question id, its source position), options sorted by it (a
form of rendezvous hashing, SHA-256): the same id gives the same order in every build and every output,
changing one question never reorders another, and an option added at the end leaves the others' order
alone. This replaced `random.Random(question_id).shuffle`, which put 13 of the sample's 30 single-choice
answers (3+ options) first (43%); the hash puts at most 9 of 30 (30%) in any place. `shuffle: false` on a question keeps the author's order (for "All of the above").
Options that all read as numbers ("2", "4", "8", "16"; "5%", "30%"; "2,048") are shown in numerical
order instead (the item-writing guideline: numbers in numerical order), as is any question that says
`order: numeric`; such questions are left out of the position balance.
A multiple-choice question never shows all its correct options first: the shuffle is drawn again, from
the next seed, until it does not (when the question has a wrong option at all).
"""

from __future__ import annotations

import hashlib
import re
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


_NUMBER = re.compile(r"^[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?\s*(%|[A-Za-z]{1,3})?$")


def number_of(text: str) -> tuple[float, str] | None:
    """The number an option states and its unit ("30%" -> (30.0, "%")), or None when it is not a number."""
    match = _NUMBER.match(text.strip())
    if not match:
        return None
    unit = match[1] or ""
    digits = match[0][: match.start(1)] if unit else match[0]
    return float(digits.replace(",", "").strip()), unit


def numeric_order(texts: Sequence[str]) -> list[int] | None:
    """Source positions in ascending numerical order, when every text is a number in one unit; else None."""
    values = [number_of(t) for t in texts]
    if len(values) < 2 or any(v is None for v in values) or len({v[1] for v in values if v}) != 1:
        return None
    return sorted(range(len(values)), key=lambda i: values[i][0])
