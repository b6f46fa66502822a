"""One "did you mean": the closest of the allowed words to a wrong one, for every message that offers it."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def closest(wrong: str, choices: Iterable[str], cutoff: float = 0.6) -> str | None:
    guess = difflib.get_close_matches(wrong, sorted(set(choices)), n=1, cutoff=cutoff)
    return guess[0] if guess else None


def did_you_mean(wrong: str, choices: Iterable[str]) -> str:
    """"; did you mean 'x'?" for the closest of `choices`, or nothing when none is close."""
    guess = closest(wrong, choices)
    return f"; did you mean '{guess}'?" if guess else ""
