"""Does what an example printed match what its source records? And if not, the unified diff.

Exact, after normalising what never matters: line endings (\\r\\n, \\r) and trailing spaces, and blank lines
at the end. Leading whitespace counts. What varies is marked by the author:
- `...` in the recorded output matches any text, across lines too (doctest's ELLIPSIS): the pieces
  between them must appear in order, the first at the start and the last at the end;
- with a `tolerance`, every number in the recorded output matches a number printed in its place within
  `math.isclose(actual, recorded, rel_tol=rel, abs_tol=abs)`; the text around the numbers must match.

Matching works piece by piece with `re.search` (each piece a literal, or a literal with number slots):
linear in the output's length for a given recorded output, whatever a hostile example prints.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Iterator

from schema.models import Tolerance

ELLIPSIS = "..."
_NUMBER = r"(?<![\w.])[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?"
NUMBER_IN_TEXT = re.compile(_NUMBER)


def tidy_output(text: str) -> str:
    """Line endings as \\n, no trailing space on any line, no blank lines at the end."""
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


def matches(recorded: str, actual: str, tolerance: Tolerance | None = None) -> bool:
    expected, got = tidy_output(recorded), tidy_output(actual)
    if expected == got:
        return True
    pieces = expected.split(ELLIPSIS)
    if len(pieces) == 1 and tolerance is None:
        return False
    position = 0
    for i, piece in enumerate(pieces):
        found = _place(piece, got, position, first=i == 0, last=i == len(pieces) - 1, tolerance=tolerance)
        if found is None:
            return False
        position = found
    return True


def _piece_pattern(piece: str, tolerance: Tolerance | None, last: bool) -> tuple[re.Pattern[str], list[float]]:
    """A piece as a pattern: its text literal, its numbers slots (with a tolerance); anchored at the end if last."""
    if tolerance is None:
        return re.compile(re.escape(piece) + (r"\Z" if last else "")), []
    parts, numbers, start = [], [], 0
    for m in NUMBER_IN_TEXT.finditer(piece):
        parts += [re.escape(piece[start:m.start()]), f"({_NUMBER})"]
        numbers.append(float(m.group()))
        start = m.end()
    parts.append(re.escape(piece[start:]))
    return re.compile("".join(parts) + (r"\Z" if last else "")), numbers


def _place(piece: str, text: str, position: int, *, first: bool, last: bool, tolerance: Tolerance | None) -> int | None:
    """Where the piece's match ends, the earliest one at or after `position` that holds; None if none does."""
    pattern, numbers = _piece_pattern(piece, tolerance, last)
    for m in _candidates(pattern, text, position, anchored=first):
        if all(_close(float(g), n, tolerance) for g, n in zip(m.groups(), numbers, strict=True)):
            return m.end()
    return None


def _candidates(pattern: re.Pattern[str], text: str, position: int, *, anchored: bool) -> Iterator[re.Match[str]]:
    if anchored:
        if (m := pattern.match(text, position)) is not None:
            yield m
        return
    while position <= len(text) and (m := pattern.search(text, position)) is not None:
        yield m
        position = m.start() + 1


def _close(actual: float, recorded: float, tolerance: Tolerance | None) -> bool:
    if tolerance is None:
        return actual == recorded
    return math.isclose(actual, recorded, rel_tol=tolerance.rel, abs_tol=tolerance.abs)


def unified_diff(recorded: str, actual: str) -> str:
    """`--- recorded` / `+++ actual` with three lines of context, on the normalised texts."""
    lines = difflib.unified_diff(tidy_output(recorded).split("\n"), tidy_output(actual).split("\n"), "recorded", "actual", lineterm="")
    return "\n".join(lines)
