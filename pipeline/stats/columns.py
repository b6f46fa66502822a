"""Columns found by their role, not by one exact header.

The same export names its columns differently across platform versions and language packs: Moodle's
Responses report heads the learner's family name "Last name" (4.x) or "Surname" (older versions and several
English language packs), the attempt's state "State" or "Status", its start "Started on" or "Started". Each
format lists, per role, every name it accepts (compared without case, spacing or a trailing colon); a file
whose header holds most of a layout's roles but not all is almost that layout, and the error names the roles
it misses, the names expected and the closest names the header has.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Column:
    """One role: what it is, said to an author ("the attempt's state"), and the headers that name it."""

    role: str
    names: tuple[str, ...]
    required: bool = True
    pattern: str | None = None  # a family of columns instead (`Response 1`, `Response 2`, ...): any one counts

    def matches(self, header: str) -> bool:
        if self.pattern is not None:
            return re.fullmatch(self.pattern, header.strip(), re.IGNORECASE) is not None
        return canonical(header) in {canonical(n) for n in self.names}

    def expected(self) -> str:
        return " or ".join(f"'{n}'" for n in self.names)


def canonical(name: str) -> str:
    """`  Started On: ` -> `started on`: how two spellings of one header are compared."""
    return " ".join(name.replace("\ufeff", "").strip().rstrip(":").split()).casefold()


@dataclass(frozen=True)
class Found:
    """Where each role's column is (the first that matches), and the required roles no column matched."""

    at: dict[str, int]
    missing: tuple[Column, ...]
    required: int

    @property
    def complete(self) -> bool:
        return not self.missing

    @property
    def nearly(self) -> bool:
        """Most of the layout is there: at least half its required roles, and at least one."""
        found = self.required - len(self.missing)
        return found >= 1 and found * 2 >= self.required


def find(header: list[str], columns: tuple[Column, ...]) -> Found:
    at: dict[str, int] = {}
    for column in columns:
        index = next((i for i, h in enumerate(header) if column.matches(h)), None)
        if index is not None:
            at[column.role] = index
    missing = tuple(c for c in columns if c.required and c.role not in at)
    return Found(at, missing, sum(c.required for c in columns))


def closest(header: list[str], column: Column, taken: set[int]) -> list[str]:
    """The header's names most like the ones `column` expects, as written, with their column numbers."""
    free = {canonical(h): (i, h) for i, h in enumerate(header) if i not in taken and h.strip()}
    guesses = []
    for name in map(canonical, column.names):  # "Attempt state" holds "state": as near as a misspelling
        guesses += [h for h in free if _holds(h, name)]
        guesses += difflib.get_close_matches(name, list(free), n=2, cutoff=0.6)
    seen = dict.fromkeys(guesses)
    return [f"'{free[g][1].strip()}' (column {free[g][0] + 1})" for g in seen]


def _holds(one: str, other: str) -> bool:
    """One name holds the other as whole words (`attempt state` holds `state`)."""
    longer, shorter = (one, other) if len(one) >= len(other) else (other, one)
    return len(shorter) >= 3 and re.search(rf"\b{re.escape(shorter)}\b", longer) is not None


def near_miss(header: list[str], title: str, found: Found) -> str:
    """`header reads like X but has no column for Y (expected 'A' or 'B'; closest here: 'C' (column 4))`."""
    taken = set(found.at.values())
    parts = []
    for column in found.missing:
        near = closest(header, column, taken)
        hint = f"; closest here: {', '.join(near)}" if near else ""
        parts.append(f"{column.role} (expected {column.expected()}{hint})")
    return f"the header reads like {title} but has no column for {'; nor for '.join(parts)}"
