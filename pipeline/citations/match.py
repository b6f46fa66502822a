"""Does a quote stand on a page? Pure functions on strings, so every rule is tested without a network.

Found means every word of the quote stands on the page, in order, in the normalized form of
`normalize` (typography, markup, whitespace and case do not count). Beyond that, two allowances:

- an ellipsis (`...`, `…`, `[...]`) splits a quote into fragments that must appear in order within one
  passage (at most `MAX_GAP` characters of normalized text between two fragments);
- a fragment may be cut mid-word at its end ("captu" for "capture"), a trailing period may be added, but
  never for a number or a negation, so "4" does not match "42" and "not" does not match "nothing".

Anything else (a changed, added or dropped word or number) is not found. For those, rapidfuzz finds the
closest passage and scores it; a score never makes a quote found, it only tells drifted from missing.

Cost: a found quote is a substring search of the page's joined form per fragment and a look at the text of
its own block for the passage (no token list, no index); the page's token list and word index are built,
once, only when some quote is not found.
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


def locate_span(quote: Quote, page: NormalizedPage) -> tuple[int, int] | None:
    """Where in `page.joined` the quote stands (its first token's start, its last token's end), or None.
    A search of the joined form per fragment: no token list, no index."""
    needles = [needle(f) for f in quote.fragments]
    start = page.joined.find(needles[0])
    while start != -1:
        end, hopeless = _follow(needles, page.joined, start)
        if end is not None:
            return start + 1, end - 1 if page.joined[end - 1] == " " else end
        if hopeless:
            return None
        start = page.joined.find(needles[0], start + 1)
    return None


def locate(quote: Quote, page: NormalizedPage) -> tuple[int, int] | None:
    """The tokens (first, end) of the page where the quote stands, or None."""
    where = locate_span(quote, page)
    return None if where is None else (page.token_at(where[0]), page.token_at(where[1] - 1) + 1)


def _exact(quote: Quote, page: NormalizedPage, where: tuple[int, int] | None) -> bool:
    """Whether the quote as written (whitespace aside) is on the page: looked for around where it was found
    when the page's text is its visible form, else in the whole page."""
    if where is not None and page.raw == page.text:
        reach = len(quote.collapsed)
        if quote.collapsed in collapse(page.raw[max(where[0] - reach, 0) : where[1] + reach]):
            return True
    return quote.collapsed in page.collapsed


def find(quote_text: str, page: NormalizedPage) -> Match:
    """Whether, and how, the quote stands on the page; the closest passage when it does not."""
    quote = Quote.parse(quote_text)
    if not quote.fragments:
        return Match(None, 0.0, None)
    where = locate_span(quote, page)
    if where is None:
        return closest(quote, page)
    span = page.text_span(*where)
    passage = collapse(page.text[span[0] : span[1]]) if span else ""
    exact = len(quote.fragments) == 1 and _exact(quote, page, span)
    return Match(Kind.EXACT if exact else Kind.NORMALIZED, 1.0, passage)


@dataclass(frozen=True)
class Window:
    """The page's tokens and where each starts in `joined`, built once a quote is not found."""

    tokens: list[str]
    starts: list[int]

    def span(self, first: int, end: int) -> tuple[int, int]:
        return self.starts[first], self.starts[end - 1] + len(self.tokens[end - 1])

    def text(self, first: int, end: int) -> str:
        return " ".join(self.tokens[first:end])


def _voted_starts(words: list[str], page: NormalizedPage, bucket: int) -> list[int]:
    """Token indexes where the quote may have drifted to: each less common word of the quote votes for the
    start its page occurrences imply; the most voted starts win. Bounded however large the page."""
    votes: Counter[int] = Counter()
    for i, word in enumerate(words):
        if page.counts[word] <= MAX_OCCURRENCES:
            votes.update((p - i) // bucket for p in page.positions(word, MAX_OCCURRENCES))
    if not votes:  # every word is common: look around the rarest one
        rarest = min((w for w in words if w in page.counts), key=page.counts.__getitem__, default=None)
        i = words.index(rarest) if rarest else 0
        return [max(p - i, 0) for p in page.positions(rarest, MAX_OCCURRENCES)[:CANDIDATES]] if rarest else []
    return [max(b * bucket, 0) for b, _ in votes.most_common(CANDIDATES)]


def _aligned(target: str, window: Window, first: int, length: int) -> tuple[int, int]:
    """The tokens of the window's stretch starting at `first` that align best with `target` (rapidfuzz)."""
    stretch = window.tokens[first : first + length]
    starts = list(accumulate((len(t) + 1 for t in stretch), initial=0))
    alignment = fuzz.partial_ratio_alignment(target, " ".join(stretch))
    if alignment is None:
        return first, first
    a = bisect_right(starts, alignment.dest_start) - 1
    b = bisect_right(starts, max(alignment.dest_end - 1, 0))
    return first + a, first + max(b, a + 1)


def _closest_span(words: list[str], page: NormalizedPage) -> tuple[float, int, int]:
    """(score, start, end in `joined`) of the passage most like `words`; (0, 0, 0) when nothing shares a word."""
    target = " ".join(words)
    slack = max(3, len(words) // 4)
    window = Window(page.token_list, page.starts)
    best = (0.0, 0, 0)
    for start in _voted_starts(words, page, slack):
        a, b = _aligned(target, window, max(start - slack, 0), len(words) + 3 * slack)
        best = max(best, (_score(target, window, a, b), a, b))
    if best[2] <= best[1]:
        return 0.0, 0, 0
    score, a, b = _refined(target, window, *best)
    return (score, *window.span(a, b))


def _score(target: str, window: Window, a: int, b: int) -> float:
    return fuzz.ratio(target, window.text(a, b)) / 100


def _refined(target: str, window: Window, score: float, a: int, b: int, reach: int = 2) -> tuple[float, int, int]:
    """The passage with its ends moved by up to `reach` tokens to the closest by edit distance, then
    scored. The alignment places the quote's characters and can leave a changed last word outside
    ("made of" for "made of stuff" against "made of wood"); edit distance counts a changed word once and
    keeps it in, where the Indel ratio would rather drop it."""
    def similarity(span: tuple[int, int]) -> float:
        return Levenshtein.normalized_similarity(target, window.text(*span))

    spans = [(first, end) for first in range(max(a - reach, 0), a + reach + 1)
             for end in range(max(b - reach, first + 1), min(b + reach, len(window.tokens)) + 1)]
    first, end = max(spans, key=similarity, default=(a, b))
    return _score(target, window, first, end), first, end


def closest(quote: Quote, page: NormalizedPage) -> Match:
    """The page's passage most like the quote, scored 0..1; `fuzzy` when close enough to call drifted.
    Each fragment of an ellipsis quote is placed on its own; the score is their length-weighted mean."""
    parts = [_closest_span(list(fragment), page) for fragment in quote.fragments]
    if any(b <= a for _, a, b in parts):
        return Match(None, 0.0, None)
    weights = [len(" ".join(fragment)) for fragment in quote.fragments]
    score = sum(p[0] * w for p, w in zip(parts, weights, strict=True)) / sum(weights)
    score = min(round(score, 3), 0.99)  # not found, so never "100% alike" (fragments out of order or apart)
    a, b = min(p[1] for p in parts), max(p[2] for p in parts)
    if b - a > sum(weights) + MAX_GAP:  # fragments far apart: show the one that drifted most
        _, a, b = min(parts)
    return Match(Kind.FUZZY if score >= DRIFT_SCORE else None, score, page.text_of(a, b))
