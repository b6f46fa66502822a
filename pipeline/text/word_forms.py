"""Word forms: whether a text holds a form of an answer, compared by word stems rather than exact strings.

A stem that says "recomputing the rest" gives away "Activation recomputation"; "into batches" gives away
"Dynamic batching"; "NVIDIA's toolkit" gives away "NVIDIA TAO". Masking the exact term hides none of
these. So an answer's forms are:

- its phrases: the answer, and for a term its acronyms and expansions (pipeline/practice/term_forms.py)
  and the synonyms an author declared (`accept:`);
- the stems of every content word of those phrases (Snowball's English stemmer: recomputing and
  recomputation are both `recomput`, batches and batching both `batch`), a possessive 's dropped, so
  inflections, plurals and derived forms all meet;
- its numbers, compared whole: `8` is in "multiples of 8" but not in "8-bit" or "INT8".

`found(forms, text)` lists the words of `text` that are forms of the answer; empty means no leak. Words
that carry no meaning alone (articles, prepositions, "of", "the") never count.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import snowballstemmer

# Function words: shared by any two texts, they say nothing about an answer.
STOP = frozenset(["a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "has", "have", "in", "into", "is", "it", "its", "of", "on", "or", "so", "than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "those", "to", "was", "were", "which", "while", "with", "within", "without", "also", "such", "each", "per", "via", "not", "no"])
_COMPOUND = re.compile(r"[A-Za-z0-9]+(?:[-'’.][A-Za-z0-9]+|,[0-9]{3}(?![0-9]))*")  # 2,048 is one number
_PART = re.compile(r"[A-Za-z0-9]+")
_NUMBER = re.compile(r"^[0-9]+(?:[.,][0-9]+)*$")
_STEMMER = snowballstemmer.stemmer("english")


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The Snowball stem of one word, lower-cased, a possessive 's dropped."""
    word = re.sub(r"['’]s$", "", word.casefold())
    return _STEMMER.stemWord(word)


def _parts(compound: str) -> list[str]:
    """A compound's word parts: `forward-pass` -> forward, pass; `NVIDIA's` -> nvidia; `0.5` stays whole."""
    if _NUMBER.match(compound):
        return [compound]
    return [p for p in _PART.findall(re.sub(r"['’]s\b", "", compound)) if not p.isdigit()]


def content_stems(text: str) -> frozenset[str]:
    """The stems of the content words of `text` (numbers left to `numbers`)."""
    return frozenset(stem(p) for c in _COMPOUND.findall(text) for p in _parts(c) if p.casefold() not in STOP and not _NUMBER.match(p))


def numbers(text: str) -> frozenset[str]:
    """The numbers of `text` that stand alone as words (not `8-bit`, not `INT8`), commas dropped."""
    return frozenset(c.replace(",", "") for c in _COMPOUND.findall(text) if _NUMBER.match(c))


@dataclass(frozen=True)
class AnswerForms:
    """What counts as a form of one answer."""

    phrases: frozenset[str]  # lower-cased: the answer, its acronyms, expansions and declared synonyms
    stems: frozenset[str]
    numbers: frozenset[str]


def answer_forms(*phrases: str) -> AnswerForms:
    """The forms of an answer given as phrases (the answer first, then its other names)."""
    kept = frozenset(p.casefold() for p in phrases if p and p.strip())
    stems = frozenset().union(*(content_stems(p) for p in kept)) if kept else frozenset()
    nums = frozenset().union(*(numbers(p) for p in kept)) if kept else frozenset()
    return AnswerForms(kept, stems, nums)


def found(forms: AnswerForms, text: str) -> list[str]:
    """The words of `text` that are forms of the answer, in order, each once."""
    hits: dict[str, None] = {}
    for compound in _COMPOUND.findall(text):
        if _NUMBER.match(compound):
            if compound.replace(",", "") in forms.numbers:
                hits[compound] = None
            continue
        for part in _parts(compound):
            if part.casefold() not in STOP and stem(part) in forms.stems:
                hits[compound] = None
    return list(hits)


def leaks(forms: AnswerForms, text: str) -> bool:
    return bool(found(forms, text))
