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
from functools import cached_property
from itertools import accumulate

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


@dataclass
class NormalizedPage:
    """A page's visible text, normalized once: the joined tokens, and where each token stands."""

    text: str  # the visible text (invisible characters removed, NFKC)
    joined: str  # " tok tok tok ": every token between single spaces, a space at both ends
    token_list: list[str]
    ends: list[int] = field(repr=False)  # where each token ends in `text`
    starts: list[int] = field(repr=False)  # each token's offset in `joined`
    collapsed: str = field(repr=False)

    @classmethod
    def of(cls, page_text: str) -> NormalizedPage:
        text = visible_form(page_text)
        folded = fold(text)
        parts = _GAP_TOKEN.split(folded[: _last_token_end(folded)])
        token_list = parts[2::3]
        ends = list(accumulate(map(len, parts)))[2::3]
        starts = list(accumulate((len(t) + 1 for t in token_list), initial=1))[:-1]
        joined = " " + " ".join(token_list) + " " if token_list else " "
        return cls(text, joined, token_list, ends, starts, collapse(page_text))

    @cached_property
    def positions(self) -> dict[str, list[int]]:
        """Token -> the indexes where it stands; built only when a quote is not found."""
        index: dict[str, list[int]] = {}
        for i, token in enumerate(self.token_list):
            index.setdefault(token, []).append(i)
        return index

    @cached_property
    def counts(self) -> Counter[str]:
        return Counter({token: len(where) for token, where in self.positions.items()})

    def token_at(self, offset: int) -> int:
        """The index of the token that starts at or before `offset` in `joined`."""
        return max(bisect_right(self.starts, offset) - 1, 0)

    def passage(self, first: int, end: int) -> str:
        """The visible text of tokens `first` to `end` (exclusive), whitespace collapsed."""
        if first >= end:
            return ""
        return collapse(self.text[self.ends[first] - len(self.token_list[first]) : self.ends[end - 1]])
