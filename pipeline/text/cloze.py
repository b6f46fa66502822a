"""Cloze marks in key points: the source syntax for "hide this phrase" on a card or in a question.

The syntax is Anki's own, so Anki users know it: `{{c1::hidden phrase}}`, optionally with a hint,
`{{c1::hidden phrase::hint}}`. Marks with the same number are hidden together on one card; different
numbers make different cards. The study guide shows the text with the marks removed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_NUMBER = 100  # Anki numbers a cloze card by it; a source needs a handful
CLOZE = re.compile(r"\{\{c(?P<number>\d{1,9})::(?P<answer>.*?)(?:::(?P<hint>.*?))?\}\}", re.DOTALL)


@dataclass(frozen=True)
class ClozeMark:
    number: int
    answer: str
    hint: str | None
    start: int
    end: int


def marks(text: str) -> list[ClozeMark]:
    """Every well-formed cloze mark in `text`, in order."""
    return [
        ClozeMark(int(m["number"]), m["answer"], m["hint"], m.start(), m.end())
        for m in CLOZE.finditer(text)
    ]


def problems(text: str) -> list[str]:
    """What is wrong with the cloze marks in `text` (empty when all are well-formed)."""
    found = []
    for mark in marks(text):
        if not 1 <= mark.number <= MAX_NUMBER:
            found.append(f"cloze numbers go from 1 to {MAX_NUMBER}, got c{mark.number}")
        if not mark.answer.strip():
            found.append(f"cloze c{mark.number} hides nothing; write {{{{c{mark.number}::phrase}}}}")
    leftover = CLOZE.sub("", text)
    if "{{" in leftover or "}}" in leftover:
        found.append("unbalanced or malformed cloze mark; expected {{c1::phrase}} or {{c1::phrase::hint}}")
    return found


def strip(text: str) -> str:
    """The text as a reader sees it in the guide: each mark replaced by the phrase it hides."""
    return CLOZE.sub(lambda m: m["answer"], text)
