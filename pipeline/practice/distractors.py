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
  expansion of it): `Candidate.excluded` says so, decided by the caller who knows the stem;
- never the very option set an earlier item of the objective offers (`avoid`): an objective of four terms
  would otherwise ask "which term?" four times over the same four options, each answered by elimination
  once one is known (the distractor lint's `item-reused-options`). The closest set that differs is taken:
  the least close pick swapped for the next closest candidate of the pools already read. A pool is not
  opened for variety alone: a filler from another objective is ruled out at a glance, so when the
  objective holds no other set the draft repeats one and the generator drops it.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Collection, Iterable
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


def pick_distractors(seed: str, answer: Candidate, pools: Iterable[Iterable[Candidate]], count: int,
                     avoid: Collection[frozenset[str]] = ()) -> list[Candidate] | None:
    """`count` candidates from `pools` (the first pool first, the next only when it runs short), the closest
    to `answer` first, none excluded and none equal to the answer or each other ignoring case; None when
    the pools hold too few. When the set (with the answer, case-folded) is one of `avoid`, the closest set
    that is not, if the pools read so far hold one."""
    chosen: list[Candidate] = []
    ranked: list[Candidate] = []  # every usable candidate, pool by pool, closest first
    seen = {answer.text.casefold()}
    for pool in pools:
        fresh = [c for c in pool if not c.excluded and c.text.casefold() not in seen]
        fresh.sort(key=lambda c: (-round(closeness(answer, c), 6), _tiebreak(seed, c.text)))
        for candidate in fresh:
            seen.add(candidate.text.casefold())
            ranked.append(candidate)
            if len(chosen) < count:
                chosen.append(candidate)
        if len(chosen) == count:
            break
    if len(chosen) < count:
        return None
    if not _repeats(answer, chosen, avoid):
        return chosen
    for k in range(count - 1, -1, -1):  # swap the least close pick first
        for other in ranked[count:]:
            varied = [*chosen[:k], *chosen[k + 1:], other]
            if not _repeats(answer, varied, avoid):
                return varied
    return chosen  # every set repeats one: the generator's reuse check drops it


def _repeats(answer: Candidate, chosen: list[Candidate], avoid: Collection[frozenset[str]]) -> bool:
    return frozenset(c.text.casefold() for c in (answer, *chosen)) in avoid
