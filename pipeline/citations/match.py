"""Does a quote stand on a page? Pure functions on strings, so every rule is tested without a network.

Found means every word of the quote stands on the page, in order, in the normalized form of
`normalize` (typography, markup, whitespace and case do not count). Beyond that, two allowances:

- an ellipsis (`...`, `…`, `[...]`) splits a quote into fragments that must appear in order within one
  passage (at most `MAX_GAP` characters of normalized text between two fragments);
- a fragment may be cut mid-word at its end ("captu" for "capture"), a trailing period may be added, but
  never for a number or a negation, so "4" does not match "42" and "not" does not match "nothing".

Anything else (a changed, added or dropped word or number) is not found. For those, rapidfuzz finds the
closest passage and scores it; a score never makes a quote found, it only tells drifted from missing.
"""

from __future__ import annotations

import html
import re
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass
from enum import StrEnum
from itertools import accumulate

from rapidfuzz import fuzz
from rapidfuzz.distance import Levenshtein

from pipeline.citations.normalize import NormalizedPage, collapse, tokens, visible_form

ELLIPSIS = re.compile(r"\[?(?:\s*\.){3,}\s*\]?")
NEGATIONS = frozenset({"no", "not", "never", "none", "nor", "neither", "nothing", "nobody", "nowhere", "cannot", "without"})
MAX_GAP = 600  # normalized characters between two fragments of one quote: about a paragraph
DRIFT_SCORE = 0.75  # a closest passage at least this close makes the quote drifted rather than missing
MAX_OCCURRENCES = 50  # words more common than this on the page do not vote for where a quote drifted to
CANDIDATES = 12  # passages scored with rapidfuzz per quote: bounds the fuzzy work on a large page


class Kind(StrEnum):
    EXACT = "exact"  # the quote's text, whitespace aside, is on the page as it is
    NORMALIZED = "normalized"  # found once typography, case and the allowances above are set aside
    FUZZY = "fuzzy"  # not found; a close passage exists (drifted)


@dataclass(frozen=True)
class Match:
    kind: Kind | None  # None: not found and nothing close
    score: float  # 1.0 when found, else the closest passage's similarity, 0..1
    passage: str | None  # the matched passage when found, else the closest one (None when none)

    @property
    def found(self) -> bool:
        return self.kind in (Kind.EXACT, Kind.NORMALIZED)


@dataclass(frozen=True)
class Quote:
    fragments: tuple[tuple[str, ...], ...]  # normalized tokens of each part between ellipses
    collapsed: str  # the quote as written, whitespace collapsed: for `exact`

    @classmethod
    def parse(cls, text: str) -> Quote:
        text = html.unescape(text).strip()
        parts = [tokens(part) for part in ELLIPSIS.split(visible_form(text))]
        fragments = [part for part in parts if part]
        while fragments and fragments[-1][-1] == ".":  # "a trailing period" may be the author's
            fragments[-1] = fragments[-1][:-1]
            fragments = [part for part in fragments if part]
        return cls(tuple(tuple(f) for f in fragments), collapse(text))

    @property
    def words(self) -> list[str]:
        return [token for fragment in self.fragments for token in fragment]


def may_be_cut(token: str) -> bool:
    """Whether a fragment's last token may be the start of a longer word on the page."""
    return token.isalpha() and len(token) >= 2 and token not in NEGATIONS


def needle(fragment: tuple[str, ...]) -> str:
    """The fragment in the page's joined form; open at the end when its last word may be cut."""
    return " " + " ".join(fragment) + ("" if may_be_cut(fragment[-1]) else " ")


def _follow(needles: list[str], joined: str, start: int) -> tuple[int | None, bool]:
    """Where the chain of fragments that starts at `start` ends (None: it does not fit in one passage),
    and whether it is hopeless (some fragment occurs nowhere later, so no later start can work)."""
    end = start + len(needles[0])
    for item in needles[1:]:
        at = joined.find(item, end - 1 if joined[end - 1] == " " else end)
        if at == -1:
            return None, True
        if at - end > MAX_GAP:
            return None, False
        end = at + len(item)
    return end, False


def locate(quote: Quote, page: NormalizedPage) -> tuple[int, int] | None:
    """The tokens (first, end) of the page where the quote stands, or None."""
    needles = [needle(f) for f in quote.fragments]
    start = page.joined.find(needles[0])
    while start != -1:
        end, hopeless = _follow(needles, page.joined, start)
        if end is not None:
            last_char = end - 2 if page.joined[end - 1] == " " else end - 1
            return page.token_at(start + 1), page.token_at(last_char) + 1
        if hopeless:
            return None
        start = page.joined.find(needles[0], start + 1)
    return None


def find(quote_text: str, page: NormalizedPage) -> Match:
    """Whether, and how, the quote stands on the page; the closest passage when it does not."""
    quote = Quote.parse(quote_text)
    if not quote.fragments:
        return Match(None, 0.0, None)
    where = locate(quote, page)
    if where is None:
        return closest(quote, page)
    exact = len(quote.fragments) == 1 and quote.collapsed in page.collapsed
    return Match(Kind.EXACT if exact else Kind.NORMALIZED, 1.0, page.passage(*where))


def _candidate_starts(words: list[str], page: NormalizedPage, bucket: int) -> list[int]:
    """Token indexes where the quote may have drifted to: each less common word of the quote votes for
    the start its page occurrences imply; the most voted starts win. Bounded however large the page."""
    votes: Counter[int] = Counter()
    for i, word in enumerate(words):
        where = page.positions.get(word, ())
        if len(where) <= MAX_OCCURRENCES:
            votes.update((p - i) // bucket for p in where)
    if not votes:  # every word is common: look around the rarest one
        rarest = min((w for w in words if w in page.positions), key=page.counts.__getitem__, default=None)
        i = words.index(rarest) if rarest else 0
        return [max(p - i, 0) for p in page.positions.get(rarest, [])[:CANDIDATES]] if rarest else []
    return [max(b * bucket, 0) for b, _ in votes.most_common(CANDIDATES)]


def _aligned(target: str, first: int, page: NormalizedPage, length: int) -> tuple[int, int]:
    """The tokens of the window starting at `first` that align best with `target`."""
    window_tokens = page.token_list[first : first + length]
    starts = list(accumulate((len(t) + 1 for t in window_tokens), initial=0))
    alignment = fuzz.partial_ratio_alignment(target, " ".join(window_tokens))
    if alignment is None:
        return first, first
    a = bisect_right(starts, alignment.dest_start) - 1
    b = bisect_right(starts, max(alignment.dest_end - 1, 0))
    return first + a, first + max(b, a + 1)


def _closest_tokens(words: list[str], page: NormalizedPage) -> tuple[float, int, int]:
    """(score, first, end) of the page's tokens most like `words`; (0, 0, 0) when nothing shares a word."""
    target = " ".join(words)
    slack = max(3, len(words) // 4)
    best = (0.0, 0, 0)
    for start in _candidate_starts(words, page, slack):
        a, b = _aligned(target, max(start - slack, 0), page, len(words) + 3 * slack)
        best = max(best, (_score(target, page, a, b), a, b))
    return _refined(target, page, *best)


def _score(target: str, page: NormalizedPage, a: int, b: int) -> float:
    return fuzz.ratio(target, " ".join(page.token_list[a:b])) / 100


def _refined(target: str, page: NormalizedPage, score: float, a: int, b: int, reach: int = 2) -> tuple[float, int, int]:
    """The passage with its ends moved by up to `reach` tokens to the closest by edit distance, then
    scored. The alignment places the quote's characters and can leave a changed last word outside
    ("made of" for "made of stuff" against "made of wood"); edit distance counts a changed word once and
    keeps it in, where the Indel ratio would rather drop it."""
    def similarity(span: tuple[int, int]) -> float:
        return Levenshtein.normalized_similarity(target, " ".join(page.token_list[span[0] : span[1]]))

    spans = [(first, end) for first in range(max(a - reach, 0), a + reach + 1)
             for end in range(max(b - reach, first + 1), min(b + reach, len(page.token_list)) + 1)]
    first, end = max(spans, key=similarity, default=(a, b))
    return _score(target, page, first, end), first, end


def closest(quote: Quote, page: NormalizedPage) -> Match:
    """The page's passage most like the quote, scored 0..1; `fuzzy` when close enough to call drifted.
    Each fragment of an ellipsis quote is placed on its own; the score is their length-weighted mean."""
    parts = [_closest_tokens(list(fragment), page) for fragment in quote.fragments]
    if any(b <= a for _, a, b in parts):
        return Match(None, 0.0, None)
    weights = [len(" ".join(fragment)) for fragment in quote.fragments]
    score = sum(p[0] * w for p, w in zip(parts, weights, strict=True)) / sum(weights)
    score = min(round(score, 3), 0.99)  # not found, so never "100% alike" (fragments out of order or apart)
    a, b = min(p[1] for p in parts), max(p[2] for p in parts)
    if b - a > len(quote.words) + MAX_GAP // 4:  # fragments far apart: show the one that drifted most
        _, a, b = min(parts)
    return Match(Kind.FUZZY if score >= DRIFT_SCORE else None, score, page.passage(a, b))
