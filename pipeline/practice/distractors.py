"""Choosing distractors a candidate might pick: terms close to the answer, from where the answer lives.

A distractor is worth its place when a candidate who half-knows the subject could choose it. So:
- pools in order: the other terms of the answer's objective, then those of its section; never the rest
  of the exam (a term from another section is ruled out at a glance);
- within a pool, ranked by `closeness`: how much the candidate's definition shares with the answer's
  (the Jaccard index of their content words, 0-100: words of 4+ letters, lower-cased, a final "s" and
  common function words dropped), plus 20 when both are of the same kind (acronym or not) and up to 20
  for a similar length of the term; ties broken by a blake2b hash of (question id, candidate), so the
  pick is the same in every build (Python's `hash()` changes from run to run);
- never a candidate the stem mentions, nor one that is the answer under another name (an acronym or an
  expansion of it): `Candidate.excluded` says so, decided by the caller who knows the stem.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from pipeline.practice.term_forms import is_acronym

_STOP = frozenset(["that", "this", "with", "from", "into", "their", "them", "than", "then", "they", "what", "when", "which", "while", "such", "also", "have", "been", "being", "were", "does", "done", "each", "more", "most", "other", "some", "only", "over", "very", "used", "uses", "using", "your", "about", "after", "before", "between"])


@dataclass(frozen=True)
class Candidate:
    text: str  # what the option shows
    definition: str  # plain text the closeness is judged on
    excluded: bool = False  # mentioned in the stem, or the answer under another name


@lru_cache(maxsize=8192)
def content_words(text: str) -> frozenset[str]:
    words = (w.casefold() for w in re.findall(r"[A-Za-z][A-Za-z0-9-]+", text))
    return frozenset(w.removesuffix("s") for w in words if len(w) >= 4 and w not in _STOP)


def closeness(answer: Candidate, other: Candidate) -> float:
    a, b = content_words(answer.definition), content_words(other.definition)
    shared = 100 * len(a & b) / len(a | b) if a | b else 0.0
    kind = 20.0 if is_acronym(answer.text.replace(" ", "")) == is_acronym(other.text.replace(" ", "")) else 0.0
    length = 20.0 * min(len(answer.text), len(other.text)) / max(len(answer.text), len(other.text), 1)
    return shared + kind + length


def _tiebreak(seed: str, text: str) -> bytes:
    return hashlib.blake2b(f"{seed}\x00{text}".encode(), digest_size=8).digest()


def pick_distractors(seed: str, answer: Candidate, pools: Iterable[Iterable[Candidate]], count: int) -> list[Candidate] | None:
    """`count` candidates from `pools` (the first pool first, the next only when it runs short), the closest
    to `answer` first, none excluded and none equal to the answer or each other ignoring case; None when
    the pools hold too few."""
    chosen: list[Candidate] = []
    seen = {answer.text.casefold()}
    for pool in pools:
        fresh = [c for c in pool if not c.excluded and c.text.casefold() not in seen]
        fresh.sort(key=lambda c: (-round(closeness(answer, c), 6), _tiebreak(seed, c.text)))
        for candidate in fresh:
            if len(chosen) < count and candidate.text.casefold() not in seen:
                chosen.append(candidate)
                seen.add(candidate.text.casefold())
        if len(chosen) == count:
            return chosen
    return None
