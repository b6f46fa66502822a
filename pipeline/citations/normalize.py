"""The presentation-free form of text, in which a quote and a page are compared.

What a page may change without changing its words: Unicode forms (NFKC), curly or straight quotes
and apostrophes, the kind of dash, non-breaking spaces and runs of whitespace, soft hyphens and
zero-width characters, case. Text is cut into tokens (runs of letters and digits, and single
punctuation marks other than quotes and backticks, which only dress words up) and tokens are joined
by single spaces. A page is normalized once (`NormalizedPage`) and every quote citing it reuses it.

Scripts written without spaces between words (Chinese, Japanese kana and kanji, Thai, Lao, Khmer,
Myanmar) have no runs to cut: each of their characters is a token of its own, so a quote may start or end
anywhere in a sentence and the closest-passage search has characters to vote with.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from itertools import islice

import numpy as np
from ahocorasick_rs import AhoCorasick, BytesAhoCorasick, Implementation

# Removed before anything else: they split words on the page without being visible.
_INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\u2060\ufeff"))
# One character for another, so that offsets in the folded text are offsets in the visible text.
_SAME_LENGTH = str.maketrans(
    "\u2018\u2019\u201a\u201b\u2032\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb\u2010\u2011\u2012\u2013\u2014\u2015\u2212",
    "'" * 5 + '"' * 7 + "-" * 7,
)
# Characters of scripts without spaces between words: one token each.
UNSPACED = ("\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff"
            "\uf900-\ufaff\uff66-\uff9f\U00020000-\U0003134f")
TOKEN = re.compile(rf"[{UNSPACED}]|[^\W{UNSPACED}]+|[^\w\s'\"`]")
# Every character that is not a token's is whitespace or a quote mark, and every other one starts a token, so
# the tokens from a place on are: the gap skipped, the longest token there, and so on. SKIP takes SKIP_RUN of
# them in one match, as `TOKEN.finditer` would find them (possessive and atomic: no word is split to make up
# the count, and fewer tokens than that left is no match).
SKIP_RUN = 64
SKIP = re.compile(rf"(?>[\s'\"`]*+(?>[{UNSPACED}]|[^\W{UNSPACED}]++|[^\w\s'\"`])){{{SKIP_RUN}}}")


def visible_form(text: str) -> str:
    """Invisible characters removed, NFKC applied (nbsp becomes a space, an ellipsis three dots)."""
    return unicodedata.normalize("NFKC", text.translate(_INVISIBLE))


def fold(text: str) -> str:
    """Quotes and dashes unified and case folded, keeping every character at its offset."""
    folded = text.translate(_SAME_LENGTH).casefold()
    if len(folded) == len(text):
        return folded
    # A few letters fold to two (German sharp s): keep those as they are so offsets still line up.
    return "".join(c if len(c.casefold()) != 1 else c.casefold() for c in text.translate(_SAME_LENGTH))


def tokens(text: str) -> list[str]:
    """The tokens of `text` in normalized form."""
    return TOKEN.findall(fold(visible_form(text)))


def collapse(text: str) -> str:
    """Runs of whitespace as one space: the form in which an `exact` match is looked for."""
    return " ".join(text.split())


# The joined form is built block by block with str methods alone (C loops: a regular expression per token
# costs several times what libxml2 takes to read the page). A block ends at a whitespace character, which
# never falls inside a token, so each block's tokens are the tokens of its text, and where each block
# starts in both forms is kept to find a passage's text again.
BLOCK = 1 << 11
COUNT_ONE_BY_ONE = 32  # more tokens to count than this: count them all in two automaton passes
SURVEY = 1 << 15  # characters of a page in which a common word already shows it is common
_WHITESPACE = re.compile(r"\s")
_GAPS = str.maketrans({c: " " for c in "'\"`\t\n\r\x0b\x0c\x1c\x1d\x1e\x1f"})
_OTHER_SPACE = re.compile(r"[^\S ]")  # whitespace other than the space (only where a block is not ASCII)
# Single-character tokens: ASCII neither word nor whitespace nor a quote mark (control characters too), and
# any such non-ASCII character.
ASCII_MARKS = "".join(c for c in map(chr, range(128)) if not (c.isalnum() or c == "_" or c.isspace() or c in "'\"`"))
_OTHER_MARK = re.compile(rf"(?![\x00-\x7f])[^\w\s]|[{UNSPACED}]")  # ... and each character of an unspaced script


def _blocks(folded: str) -> list[int]:
    """Where each block starts: every BLOCK characters or so, just after a whitespace character."""
    starts, at = [0], BLOCK
    while at < len(folded) and (space := _WHITESPACE.search(folded, at)):
        starts.append(space.end())
        at = space.end() + BLOCK
    return starts


def _joined_block(block: str, marks: list[str]) -> str:
    """A block's tokens between single spaces (what TOKEN finds in it), without spaces at its ends."""
    spaced = block.translate(_GAPS)
    if not block.isascii():
        spaced = _OTHER_MARK.sub(r" \g<0> ", _OTHER_SPACE.sub(" ", spaced))
    for mark in marks:
        if mark in spaced:
            spaced = spaced.replace(mark, f" {mark} ")
    return " ".join(spaced.split())  # one C pass; the only whitespace left is the space


def matches(patterns: list[str], text: str) -> list[tuple[int, int, int]]:
    """(pattern index, start, end) of every occurrence of every pattern in `text`, overlapping ones too, in
    order of their ends: one pass of an Aho-Corasick automaton (quick to build, run once). An ASCII text
    (most pages' joined form) is searched as bytes, whose offsets are then its characters' offsets: the
    `str` automaton maps each match's UTF-8 offsets back to characters, a fifth of the pass (4.4 ms against
    3.6 ms over a 1 MB page, issue 36)."""
    if text.isascii() and all(pattern.isascii() for pattern in patterns):
        automaton = BytesAhoCorasick([pattern.encode("ascii") for pattern in patterns], implementation=Implementation.ContiguousNFA)
        return automaton.find_matches_as_indexes(text.encode("ascii"), overlapping=True)
    return AhoCorasick(patterns, implementation=Implementation.ContiguousNFA).find_matches_as_indexes(text, overlapping=True)


def _occurrences(tokens: list[str], joined: str) -> list[list[int]]:
    """Where each token stands in `joined` (the offset of its leading space), every occurrence, overlapping
    ones too: one pass of an Aho-Corasick automaton of all of them."""
    found: list[list[int]] = [[] for _ in tokens]
    if tokens:
        for index, start, _ in matches([f" {token} " for token in tokens], joined):
            found[index].append(start)
    return found


@dataclass
class NormalizedPage:
    """A page's visible text, normalized once: the tokens joined by single spaces, and where each block of
    the text stands in that form. Token offsets, counts and positions are found only when a quote is not."""

    text: str  # the visible text (invisible characters removed, NFKC)
    joined: str  # " tok tok tok ": every token between single spaces, a space at both ends
    folded: str = field(repr=False)  # `fold(text)`: the same offsets as `text`
    block_text: list[int] = field(repr=False)  # where each block starts in `text`
    block_joined: list[int] = field(repr=False)  # ... and in `joined`
    raw: str = field(repr=False, default="")  # the page text as given (for exact matches)
    _counts: dict[str, int] = field(default_factory=dict, init=False, repr=False, compare=False)
    _every: Counter[str] | None = field(default=None, init=False, repr=False, compare=False)  # every token's count
    _surveyed: bool = field(default=False, init=False, repr=False, compare=False)  # counts exact from now on
    _exact: dict[str, int] = field(default_factory=dict, init=False, repr=False, compare=False)  # ... of rare tokens
    _over: set[str] = field(default_factory=set, init=False, repr=False, compare=False)  # ... and the common ones
    _positions: dict[str, list[int]] = field(default_factory=dict, init=False, repr=False, compare=False)

    @classmethod
    def of(cls, page_text: str) -> NormalizedPage:
        text = visible_form(page_text)
        folded = fold(text)
        marks = [mark for mark in ASCII_MARKS if mark in folded]
        starts = _blocks(folded)
        parts, block_joined, at = [], [], 1
        for first, end in zip(starts, [*starts[1:], len(folded)], strict=True):
            block_joined.append(at)
            part = _joined_block(folded[first:end], marks)
            if part:
                parts.append(part)
                at += len(part) + 1
        joined = " " + " ".join(parts) + " " if parts else " "
        return cls(text, joined, folded, starts, block_joined, page_text)

    @cached_property
    def spaces(self) -> np.ndarray:
        """Where each space of `joined` is: token i stands between spaces i and i + 1 (found in numpy: a list
        of the page's tokens costs more than reading the page)."""
        return np.flatnonzero(np.frombuffer(self.joined.encode("utf-32-le"), dtype=np.uint32) == 32)

    @property
    def token_count(self) -> int:
        return len(self.spaces) - 1

    @cached_property
    def starts(self) -> np.ndarray:
        """Each token's offset in `joined`."""
        return self.spaces[:-1] + 1

    def tokens_text(self, first: int, end: int) -> str:
        """Tokens `first` to `end` (exclusive) as they stand in `joined`, between single spaces."""
        return self.joined[self.spaces[first] + 1 : self.spaces[end]] if first < end else ""

    def count(self, token: str) -> int:
        """How often `token` stands on the page, counted in C and kept (adjacent repeats of one token count
        every other one when counted alone: enough to tell a rare word from a common one)."""
        if self._every is not None:
            return self._every[token]
        if self._surveyed:  # counted exactly (`count_all`): every token of the page counted at once
            if token in self._exact:
                return self._exact[token]
            self._every = Counter(self.joined.split())
            return self._every[token]
        if token not in self._counts:
            self._counts[token] = self.joined.count(f" {token} ")
        return self._counts[token]

    def at_most(self, token: str, most: int) -> bool:
        """Whether `token` stands on the page at most `most` times (as `count(token) <= most`, without counting
        a common word's every occurrence when `count_all` looked for it)."""
        if self._every is None and self._surveyed and token in self._over:
            return False
        return self.count(token) <= most

    def count_all(self, tokens: set[str], most: int) -> None:
        """Have the counts of `tokens` ready: one look a token for a few; for many (a quote not found asks for
        its words; a page of many such quotes, for hundreds), exact counts of those that stand at most `most`
        times, with their positions, and for the others only that they are more. Two automaton passes: over
        the page's first SURVEY characters, where a common word already stands more than `most` times, then
        over the whole page for the rest (counting every token of a 1 MB page with a Counter, or reporting
        every occurrence of its common words, cost more than normalizing it)."""
        if not self._surveyed and len(tokens - self._counts.keys()) > COUNT_ONE_BY_ONE:
            self._surveyed = True
        if not self._surveyed or self._every is not None:
            return
        wanted = sorted(tokens - self._exact.keys() - self._over)
        cut = self.joined.find(" ", SURVEY)
        if wanted and cut != -1:  # a prefix that ends with a space: its occurrences are the page's
            early = _occurrences(wanted, self.joined[: cut + 1])
            self._over.update(token for token, offsets in zip(wanted, early, strict=True) if len(offsets) > most)
            wanted = [token for token, offsets in zip(wanted, early, strict=True) if len(offsets) <= most]
        for token, offsets in zip(wanted, _occurrences(wanted, self.joined), strict=True):
            if len(offsets) > most:
                self._over.add(token)
            else:
                self._exact[token] = len(offsets)
                self._positions.setdefault(token, np.searchsorted(self.spaces, offsets).tolist())

    def positions(self, token: str) -> list[int]:
        """The indexes where `token` stands (see `find_positions`)."""
        if token not in self._positions:
            self.find_positions([token])
        return self._positions[token]

    def first_positions(self, token: str, most: int) -> list[int]:
        """The first `most` indexes where `token` stands, however common it is (no list of them all)."""
        needle, offsets = f" {token} ", []
        at = self.joined.find(needle)
        while at != -1 and len(offsets) < most:
            offsets.append(at)
            at = self.joined.find(needle, at + 1)
        return np.searchsorted(self.spaces, offsets).tolist()

    def find_positions(self, wanted: list[str]) -> None:
        """The positions of every token of `wanted`, found in one pass of an Aho-Corasick automaton over the
        page and kept: the tokens a closest-passage search asks for, for every quote not found at once."""
        wanted = sorted({token for token in wanted if token not in self._positions})
        if not wanted:
            return
        found = _occurrences(wanted, self.joined)
        for token, offsets in zip(wanted, found, strict=True):
            self._positions[token] = np.searchsorted(self.spaces, offsets).tolist()  # a token's leading space

    @cached_property
    def collapsed(self) -> str:
        """The page as given, whitespace collapsed: where an `exact` quote stands as written."""
        return collapse(self.raw)

    def span(self, first: int, end: int) -> tuple[int, int]:
        """Where tokens `first` to `end` (exclusive) stand in `joined`."""
        return int(self.spaces[first]) + 1, int(self.spaces[end])

    def passage(self, first: int, end: int) -> str:
        """The visible text of tokens `first` to `end` (exclusive), whitespace collapsed."""
        if first >= end:
            return ""
        return self.text_of(*self.span(first, end))

    def text_of(self, start: int, end: int) -> str:
        """The visible text of the tokens at `joined[start:end]`, whitespace collapsed ("" when there are none)."""
        where = self.text_span(start, end)
        return collapse(self.text[where[0] : where[1]]) if where else ""

    def text_span(self, start: int, end: int) -> tuple[int, int] | None:
        """Where the tokens at `joined[start:end]` stand in `text` (an end inside a token, as a cut word
        leaves it, ends there too): the tokens of their block are read from its start in the folded text,
        which has the same tokens as `joined` at the same offsets as `text`. No pattern per passage."""
        joined = self.joined
        while start < end and joined[start] == " ":
            start += 1
        while end > start and joined[end - 1] == " ":
            end -= 1
        if end <= start:
            return None
        start = joined.rfind(" ", 0, start) + 1  # a start inside a token: from the token's start
        block = bisect_right(self.block_joined, start) - 1
        skip = joined.count(" ", self.block_joined[block], start)  # the block's tokens before `start`
        tokens_in = joined.count(" ", start, end)  # ... and after the first one, up to `end`
        last_start = joined.rfind(" ", start, end) + 1 if tokens_in else start
        at = self.block_text[block]
        while skip >= SKIP_RUN and (run := SKIP.match(self.folded, at)):  # a block's tokens: hundreds to skip
            at, skip = run.end(), skip - SKIP_RUN
        found = TOKEN.finditer(self.folded, at)
        first = next(islice(found, skip, None), None)
        last = first if not tokens_in or first is None else next(islice(found, tokens_in - 1, None), None)
        if first is None or last is None:
            return None
        return first.start(), last.start() + (end - last_start)
