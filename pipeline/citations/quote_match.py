"""Does a quote stand on a page? Pure functions on strings, so every rule is tested without a network.

Found means every word of the quote stands on the page, in order, in the normalized form of
`normalize` (typography, markup, whitespace and case do not count). Beyond that, two allowances:

- an ellipsis (`...`, `…`, `[...]`) splits a quote into fragments that must appear in order within one
  passage (at most `MAX_GAP` characters of normalized text between two fragments);
- a fragment may be cut mid-word at its end ("captu" for "capture"), a trailing period may be added, but
  never for a number or a negation, so "4" does not match "42" and "not" does not match "nothing".

Anything else (a changed, added or dropped word or number) is not found. For those, rapidfuzz finds the
closest passage and scores it; a score never makes a quote found, it only tells drifted from missing.

Cost: all the quotes citing a page are looked for at once (`find_all`): every fragment of every quote is
a pattern of one compiled Aho-Corasick automaton (`ahocorasick_rs`), run over the page's joined form in one
pass; each occurrence used is then verified by comparing the page's text with the pattern, and the
fragments are chained in order within one passage. Only the quotes not found that way cost more: the
page's token list and word index are built, once, and the closest passage is searched for each of them.

Why ahocorasick-rs (1.0.3, pinned): a maintained wheel of the Rust `aho-corasick` crate with no run-time
dependency, that takes Python `str` and reports character offsets with overlapping matches (two quotes of
one sentence overlap); pyahocorasick is the alternative, slower to build and search on a large page.
"""

from __future__ import annotations

import html
import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

import numpy as np
from rapidfuzz import fuzz, process
from rapidfuzz.distance import LCSseq, Levenshtein

from pipeline.citations.normalize import NormalizedPage, collapse, matches, tokens, visible_form

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
    where: tuple[int, int] | None = None  # found: where the quote stands in the page's joined form

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


def locate_span(quote: Quote, page: NormalizedPage) -> tuple[int, int] | None:
    """Where in `page.joined` the quote stands (its first token's start, its last token's end), or None."""
    return locate_all([quote], page)[0]


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
    return find_all([quote_text], page)[0]


def find_all(quote_texts: Sequence[str], page: NormalizedPage) -> list[Match]:
    """`find` for every quote citing the page, the page read once for all of them (see the docstring)."""
    quotes = [Quote.parse(text) for text in quote_texts]
    spans = locate_all(quotes, page)
    rest = {w for quote, where in zip(quotes, spans, strict=True) if where is None for w in quote.words}
    page.count_all(rest, MAX_OCCURRENCES)
    page.find_positions([w for w in rest if page.at_most(w, MAX_OCCURRENCES)])  # one pass for all of them
    return [_judged(quote, page, where) for quote, where in zip(quotes, spans, strict=True)]


def locate_all(quotes: Sequence[Quote], page: NormalizedPage) -> list[tuple[int, int] | None]:
    """`locate_span` for each quote: one automaton of every fragment's needle, one pass over the page."""
    needles = sorted({needle(f) for quote in quotes for f in quote.fragments})
    if not needles:
        return [None] * len(quotes)
    occurrences: dict[str, list[int]] = {n: [] for n in needles}
    for index, start, _ in matches(needles, page.joined):
        occurrences[needles[index]].append(start)  # in order of their ends: for one needle, of their starts
    return [_chained(quote, page.joined, occurrences) if quote.fragments else None for quote in quotes]


def _chained(quote: Quote, joined: str, occurrences: dict[str, list[int]]) -> tuple[int, int] | None:
    """The first place where the quote's fragments follow one another within one passage (as `locate_span`),
    each occurrence verified against the page's text."""
    needles = [needle(f) for f in quote.fragments]
    for start in occurrences[needles[0]]:
        placed, end = [start], start + len(needles[0])
        for item in needles[1:]:
            places = occurrences[item]
            i = bisect_left(places, end - 1 if joined[end - 1] == " " else end)
            if i == len(places):
                return None  # this fragment stands nowhere later: no later start can work
            if places[i] - end > MAX_GAP:
                break
            placed.append(places[i])
            end = places[i] + len(item)
        else:
            if all(joined.startswith(item, at) for item, at in zip(needles, placed, strict=True)):  # checked, not trusted
                return start + 1, end - 1 if joined[end - 1] == " " else end
    return None


def _judged(quote: Quote, page: NormalizedPage, where: tuple[int, int] | None) -> Match:
    if not quote.fragments:
        return Match(None, 0.0, None)
    if where is None:
        return closest(quote, page)
    span = page.text_span(*where)
    passage = collapse(page.text[span[0] : span[1]]) if span else ""
    exact = len(quote.fragments) == 1 and _exact(quote, page, span)
    return Match(Kind.EXACT if exact else Kind.NORMALIZED, 1.0, passage, where)


def _voted_starts(words: list[str], page: NormalizedPage, bucket: int) -> list[int]:
    """Token indexes where the quote may have drifted to: each less common word of the quote votes for the
    start its page occurrences imply; the most voted starts win. Bounded however large the page."""
    votes: Counter[int] = Counter()
    for i, word in enumerate(words):
        if page.at_most(word, MAX_OCCURRENCES):
            votes.update((p - i) // bucket for p in page.positions(word))
    if not votes:  # every word is common: look around the rarest one
        rarest = min((w for w in words if page.count(w)), key=page.count, default=None)
        i = words.index(rarest) if rarest else 0
        return [max(p - i, 0) for p in page.first_positions(rarest, CANDIDATES)] if rarest else []
    return [max(b * bucket, 0) for b, _ in votes.most_common(CANDIDATES)]


def _aligned(target: str, page: NormalizedPage, first: int, length: int) -> tuple[int, int]:
    """The tokens of the page's stretch starting at `first` that align best with `target` (rapidfuzz)."""
    end = min(first + length, page.token_count)
    starts = page.spaces[first:end] - page.spaces[first]  # where each token of the stretch starts in it
    alignment = fuzz.partial_ratio_alignment(target, page.tokens_text(first, end))
    if alignment is None:
        return first, first
    a = int(np.searchsorted(starts, alignment.dest_start, side="right")) - 1
    b = int(np.searchsorted(starts, max(alignment.dest_end - 1, 0), side="right"))
    return first + a, first + max(b, a + 1)


def _ceiling(target: str, page: NormalizedPage, first: int, length: int) -> float:
    """The most any passage of the stretch of `length` tokens from `first` can score (`_score`), from the
    longest subsequence the stretch has in common with `target` (bit-parallel in rapidfuzz, a fraction of an
    alignment's cost). The score of a passage P is 2 LCS(t, P) / (|t| + |P|), and LCS(t, P) <= min(L, |P|)
    where L = LCS(t, stretch): whatever |P|, that is at most 2 L / (|t| + L)."""
    common = LCSseq.similarity(target, page.tokens_text(first, min(first + length, page.token_count)))
    return 2 * common / (len(target) + common) if common else 0.0


def _closest_span(words: list[str], page: NormalizedPage) -> tuple[float, int, int]:
    """(score, start, end in `joined`) of the passage most like `words`; (0, 0, 0) when nothing shares a word."""
    target = " ".join(words)
    slack = max(3, len(words) // 4)
    length, best = len(words) + 3 * slack, (0.0, 0, 0)
    # The best of every candidate stretch's aligned passage, whatever the order they are looked at in (a
    # maximum): the most promising first, and none whose ceiling is below the best found so far.
    stretches = sorted(((_ceiling(target, page, first, length), first)
                        for first in (max(start - slack, 0) for start in _voted_starts(words, page, slack))), reverse=True)
    for ceiling, first in stretches:
        if best[0] and ceiling + 1e-6 < best[0]:
            break  # no passage of this stretch or a later one can score as well: no alignment to look for
        a, b = _aligned(target, page, first, length)
        best = max(best, (_score(target, page, a, b), a, b))
    if best[2] <= best[1]:
        return 0.0, 0, 0
    score, a, b = _refined(target, page, *best)
    return (score, *page.span(a, b))


def _score(target: str, page: NormalizedPage, a: int, b: int) -> float:
    return fuzz.ratio(target, page.tokens_text(a, b)) / 100


def _refined(target: str, page: NormalizedPage, score: float, a: int, b: int, reach: int = 2) -> tuple[float, int, int]:
    """The passage with its ends moved by up to `reach` tokens to the closest by edit distance, then
    scored. The alignment places the quote's characters and can leave a changed last word outside
    ("made of" for "made of stuff" against "made of wood"); edit distance counts a changed word once and
    keeps it in, where the Indel ratio would rather drop it."""
    spans = [(first, end) for first in range(max(a - reach, 0), a + reach + 1)
             for end in range(max(b - reach, first + 1), min(b + reach, page.token_count) + 1)]
    if not spans:
        return _score(target, page, a, b), a, b
    # Every span scored in one call (the first of the most similar wins, as `max` would pick it).
    similarity = process.cdist([target], [page.tokens_text(*span) for span in spans],
                               scorer=Levenshtein.normalized_similarity, dtype=np.float64)[0]
    first, end = spans[int(np.argmax(similarity))]
    return _score(target, page, first, end), first, end


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
