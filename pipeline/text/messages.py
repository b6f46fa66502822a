"""Pieces of the messages authors read, in one place: a value as they wrote it, and "did you mean".

Every stage's errors use these (the loader's schema errors, the question types' checks, the rule
checks), so a value is described the same way wherever it is wrong.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from typing import Any


def did_you_mean(wrong: str, choices: Iterable[str], cutoff: float = 0.6) -> str:
    """"; did you mean 'x'?" for the closest of `choices`, or nothing when none is close."""
    guess = difflib.get_close_matches(wrong, sorted(choices), n=1, cutoff=cutoff)
    return f"; did you mean '{guess[0]}'?" if guess else ""


def shown(value: Any) -> str:
    """A value as printed back: credentials in an address are never repeated, a long text is cut."""
    text = re.sub(r"(//)[^/@\s]*@", r"\1***@", value) if isinstance(value, str) else value
    printed = repr(text)
    return printed if len(printed) <= 120 else printed[:100] + "...'"


def describe(value: Any) -> str:
    """A value as an author wrote it in YAML, never as Python names it (dict, True, NoneType)."""
    if isinstance(value, dict):
        return "a mapping (key: value)"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "nothing (an empty value)"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    return shown(value)
