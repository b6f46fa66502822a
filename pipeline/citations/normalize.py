"""The presentation-free form of text, in which a quote and a page are compared.

What a page may change without changing its words: Unicode forms (NFKC), curly or straight quotes
and apostrophes, the kind of dash, non-breaking spaces and runs of whitespace, soft hyphens and
zero-width characters, case. Text is cut into tokens (runs of letters and digits, and single
punctuation marks other than quotes and backticks, which only dress words up) and tokens are joined
by single spaces. A page is normalized once (`NormalizedPage`) and every quote citing it reuses it.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from itertools import accumulate, compress, count
from operator import add

# Removed before anything else: they split words on the page without being visible.
_INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\u2060\ufeff"))
# One character for another, so that offsets in the folded text are offsets in the visible text.
_SAME_LENGTH = str.maketrans(
    "\u2018\u2019\u201a\u201b\u2032\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb\u2010\u2011\u2012\u2013\u2014\u2015\u2212",
    "'" * 5 + '"' * 7 + "-" * 7,
)
TOKEN = re.compile(r"\w+|[^\w\s'\"`]")
# A token with the ignorable characters before it. Splitting on it gives [text, gap, token, text, gap,
# token, ...]; the "text" parts are empty except after the last token, so every character is accounted
# for and token offsets are running sums of lengths. Much faster on a large page than match objects.
_GAP_TOKEN = re.compile(r"([\s'\"`]*)(\w+|[^\w\s'\"`])")


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


def _last_token_end(folded: str) -> int:
    """Where the last token ends: splitting a trailing run of gap characters would be quadratic in its length
    (the regex tries, from each of its characters, to reach a token after it)."""
    end = len(folded)
    while end and (folded[end - 1].isspace() or folded[end - 1] in "'\"`"):
        end -= 1
    return end


# The joined form is built block by block with str methods alone (C loops: a regular expression per token
# costs several times what libxml2 takes to read the page). A block ends at a whitespace character, which
# never falls inside a token, so each block's tokens are the tokens of its text, and where each block
# starts in both forms is kept to find a passage's text again.
BLOCK = 1 << 14
_WHITESPACE = re.compile(r"\s")
_GAPS = str.maketrans({c: " " for c in "'\"`\t\n\r\x0b\x0c\x1c\x1d\x1e\x1f"})
_OTHER_SPACE = re.compile(r"[^\S ]")  # whitespace other than the space (only where a block is not ASCII)
# Single-character tokens: ASCII neither word nor whitespace nor a quote mark (control characters too), and
# any such non-ASCII character.
ASCII_MARKS = "".join(c for c in map(chr, range(128)) if not (c.isalnum() or c == "_" or c.isspace() or c in "'\"`"))
_OTHER_MARK = re.compile(r"(?![\x00-\x7f])[^\w\s]")


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
    while "  " in spaced:
        spaced = spaced.replace("  ", " ")
    return spaced.strip(" ")


@dataclass
class NormalizedPage:
    """A page's visible text, normalized once: the tokens joined by single spaces, and where each block of
    the text stands in that form. Token lists and indexes are built only when a quote is not found."""

    text: str  # the visible text (invisible characters removed, NFKC)
    joined: str  # " tok tok tok ": every token between single spaces, a space at both ends
    folded: str = field(repr=False)  # `fold(text)`: the same offsets as `text`
    block_text: list[int] = field(repr=False)  # where each block starts in `text`
    block_joined: list[int] = field(repr=False)  # ... and in `joined`
    raw: str = field(repr=False, default="")  # the page text as given (for exact matches)
    _indexes: dict[int, dict[str, list[int]]] = field(default_factory=dict, init=False, repr=False, compare=False)

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
    def token_list(self) -> list[str]:
        return self.joined.split()

    @cached_property
    def starts(self) -> list[int]:
        """Each token's offset in `joined`."""
        return list(map(add, accumulate(map(len, self.token_list), initial=0), count(1)))[:-1]

    @cached_property
    def counts(self) -> Counter[str]:
        """How often each token stands on the page (counted in C)."""
        return Counter(self.token_list)

    def positions(self, token: str, rare: int) -> list[int]:
        """The indexes where `token` stands. Those of every token standing at most `rare` times are found in
        one pass, when first asked for (a quote not found); a commoner token's, when asked for."""
        if self.counts[token] <= rare:
            return self._rare(rare).get(token, [])
        return list(compress(count(), map(token.__eq__, self.token_list)))

    def _rare(self, rare: int) -> dict[str, list[int]]:
        if rare not in self._indexes:
            wanted = {token for token, n in self.counts.items() if n <= rare}
            index: dict[str, list[int]] = {}
            for i in compress(count(), map(wanted.__contains__, self.token_list)):
                index.setdefault(self.token_list[i], []).append(i)
            self._indexes[rare] = index
        return self._indexes[rare]

    @cached_property
    def collapsed(self) -> str:
        """The page as given, whitespace collapsed: where an `exact` quote stands as written."""
        return collapse(self.raw)

    def token_at(self, offset: int) -> int:
        """The index of the token that starts at or before `offset` in `joined`."""
        return max(bisect_right(self.starts, offset) - 1, 0)

    def span(self, first: int, end: int) -> tuple[int, int]:
        """Where tokens `first` to `end` (exclusive) stand in `joined`."""
        return self.starts[first], self.starts[end - 1] + len(self.token_list[end - 1])

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
        """Where the tokens at `joined[start:end]` stand in `text`: the same tokens looked for in the text of
        their block on, as many times as they occur in `joined` between the block's start and `start`."""
        words = self.joined[start:end].split()
        if not words:
            return None
        block = bisect_right(self.block_joined, start) - 1
        needle = " " + " ".join(words) + " "
        earlier = self.joined.count(needle, self.block_joined[block] - 1, start - 2 + len(needle))
        for n, found in enumerate(_pattern(tuple(words)).finditer(self.folded, self.block_text[block])):
            if n == earlier:
                return found.span()
        return None


def _is_word(token: str) -> bool:
    return token[0].isalnum() or token[0] == "_"


@lru_cache(maxsize=1024)
def _pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    """The tokens as they may stand in folded text: gaps (whitespace, quote marks) between them, at least one
    between two words, and no word character running on at either end."""
    parts = [r"(?<!\w)" if _is_word(words[0]) else ""]
    for before, word in zip((None, *words), words, strict=False):
        if before is not None:
            parts.append(r"[\s'\"`]+" if _is_word(before) and _is_word(word) else r"[\s'\"`]*")
        parts.append(re.escape(word))
    parts.append(r"(?!\w)" if _is_word(words[-1]) else "")
    return re.compile("".join(parts))
