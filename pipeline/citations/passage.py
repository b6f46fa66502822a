"""Changed since review: the page's text around a quote, kept in the lock, and what a change of it means.

A quote can stand word for word while the sentences around it are rewritten ("... is recommended" became
"... was recommended before version 3"). The lock keeps the passage around each found quote (`context`,
`CONTEXT_WORDS` words either side) with a fingerprint of its normalized words and the day it was taken.

When an audit finds the quote again but the passage differs from the kept one:
- kept on or after the objective's `reviewed` date: the page changed after the author last read it. The
  citation stays `found` with a `changed-since-review` warning and a word diff; the kept passage stays, so
  the warning repeats until the author reviews again (a later `reviewed` date);
- kept before the `reviewed` date: the author has read the page since; the new passage becomes the kept one.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass

from pipeline.citations.normalize import NormalizedPage, tokens
from pipeline.citations.quote_match import Quote, locate_span
from pipeline.citations.worddiff import with_markers, word_diff

CONTEXT_WORDS = 30  # normalized tokens either side of the quote: about a sentence or two


def context_of(quote: str, page: NormalizedPage) -> str | None:
    """The page's visible text around a found quote (None when the quote is not on the page)."""
    parsed = Quote.parse(quote)
    where = locate_span(parsed, page) if parsed.fragments else None
    return None if where is None else context_at(where, page)


def context_at(where: tuple[int, int], page: NormalizedPage) -> str:
    """The page's visible text around the quote found at `where` in its joined form."""
    start, end = where
    for _ in range(CONTEXT_WORDS):  # a token further out on each side, while there is one
        start = page.joined.rfind(" ", 0, start - 1) + 1 if start > 1 else start
        end = following if (following := page.joined.find(" ", end + 1)) != -1 else end
    return page.text_of(start, end)


def fingerprint(passage: str) -> str:
    """Of the passage's normalized words: typography, punctuation, markup and whitespace do not count
    (as in the word diff shown for a change, so a change always shows a changed word)."""
    words = [token for token in tokens(passage) if token[0].isalnum() or token[0] == "_"]
    return "sha256:" + hashlib.sha256(" ".join(words).encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class Kept:
    """The passage the lock keeps for a quote, and the day it was taken."""

    context: str
    fingerprint: str
    date: dt.date


@dataclass(frozen=True)
class Change:
    kept: Kept  # what the lock keeps after this audit
    diff: str | None  # a word diff from the kept passage to today's, when the author should re-read


def compare(kept: Kept | None, context: str, reviewed: dt.date | None, today: dt.date) -> Change:
    """What today's passage around a found quote means against the kept one (see the module docstring)."""
    now = Kept(context, fingerprint(context), today)
    if kept is None or kept.fingerprint == now.fingerprint:
        return Change(kept or now, None)
    if reviewed is not None and kept.date < reviewed:
        return Change(now, None)  # the author read the page after the kept passage was taken
    return Change(kept, with_markers(word_diff(kept.context, context)))
