"""`make bench`: the project's speed as ratios measured side by side in one run (see bench/__main__.py).

Each benchmark module (one per part: citations, pdf, anki, scaling) exposes
`measure() -> list[Measure]`; the runner calls them all, prints a table and one closing line
`bench: key=value ...`. Only ratios of times taken in the same run mean anything on a shared machine.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Measure:
    key: str  # the name in the closing `bench:` line, e.g. pdf_overhead
    value: float  # the ratio (median of several runs)
    goal: str  # e.g. "<= 1.15"
    detail: str  # the absolute figures behind it, for the table


def median_seconds(action: Callable[[], object], repeat: int = 5) -> float:
    """Median wall time of `repeat` runs of `action` (after one warm-up run)."""
    action()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)
