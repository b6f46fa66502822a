"""Choosing distractors deterministically: the same sources always give the same wrong options.

Candidates are ranked by a hash of (question id, candidate text), a form of rendezvous hashing: the
pick looks arbitrary, so neighbouring terms do not share their options, yet it is the same in every
build, and a term added to the exam changes only the questions where it ranks among the first few.
The hash is blake2b, not Python's `hash()`, which changes from run to run.
"""

from __future__ import annotations

import hashlib
import heapq
from collections.abc import Iterable


def _rank(seed: str, text: str) -> bytes:
    return hashlib.blake2b(f"{seed}\x00{text}".encode(), digest_size=8).digest()


def _distinct(pool: Iterable[str], seen: set[str]) -> list[str]:
    """The texts of `pool` not in `seen`, once each ignoring case (the smallest spelling, whatever the order)."""
    fresh: dict[str, str] = {}
    for text in pool:
        key = text.casefold()
        if key not in seen and (key not in fresh or text < fresh[key]):
            fresh[key] = text
    return list(fresh.values())


def pick_distractors(seed: str, right: str, pools: Iterable[Iterable[str]], count: int) -> list[str] | None:
    """`count` texts from `pools` (the first pool first, the next only when it runs short), none equal to
    `right` or to each other ignoring case; None when the pools together hold too few."""
    chosen: list[str] = []
    seen = {right.casefold()}
    for pool in pools:  # pools are lazy: a later one costs nothing while an earlier one suffices
        for text in heapq.nsmallest(count - len(chosen), _distinct(pool, seen), key=lambda t: _rank(seed, t)):
            chosen.append(text)
            seen.add(text.casefold())
        if len(chosen) == count:
            return chosen
    return None
