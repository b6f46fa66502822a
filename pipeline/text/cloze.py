"""Cloze marks in key points: the source syntax for "hide this phrase" on a card or in a question.

The syntax is Anki's own, so Anki users know it: `{{c1::hidden phrase}}`, optionally with a hint,
`{{c1::hidden phrase::hint}}`. Marks with the same number are hidden together on one card; different
numbers make different cards. The study guide shows the text with the marks removed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_NUMBER = 100  # Anki numbers a cloze card by it; a source needs a handful
MAX_GAP_WORDS = 4  # a gap a learner can recall: a term or a number, never a clause
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


_SENTENCE_END = re.compile(r"(?<=[.!?])[\"”’)]?\s+(?=[A-Z0-9(\"“`*])")
_LEANS_BACK = re.compile(r"(?:It|Its|They|Their|Them|This|These|That|Those|Such|So|And|But|Both|Each)\b")
_REFERS = re.compile(r"\b(?:it|its|they|them|their)\b")


def leans_back(sentence: str) -> bool:
    """Whether a sentence needs the one before it to be understood (it opens on, or holds, a pronoun)."""
    return bool(_LEANS_BACK.match(sentence) or _REFERS.search(sentence))


_SLOT = "\ue010{}\ue011"  # private-use: no source types it; stands for a mark while sentences are split
_SLOT_RE = re.compile("\ue010(\\d+)\ue011")


def sentences_with(text: str, number: int, *, lean: bool = True) -> str:
    """The sentences of `text` that hold a mark numbered `number`, marks kept: what a card or a fill-in
    shows, rather than a whole paragraph whose other sentences give the gap away. `lean=False` leaves
    out the sentences they lean on (a fill-in's explanation is the gap's own sentence)."""
    return _sentences(text, lambda numbers: number in numbers, lean)


def sentences_with_any(text: str) -> str:
    """The sentences of `text` holding any mark, in order (a key point's cloze card shows these)."""
    return _sentences(text, bool)


_BLOCK = re.compile(r"^\s*(?:\||\$\$)")  # a paragraph that is a pipe table or a display formula


def prose(text: str) -> str:
    """`text` without its tables and display formulas: they are not sentences, so no card or essential
    picks a row of one (a mark inside one is left out with it)."""
    paragraphs = re.split(r"\n[ \t]*\n", text)
    return "\n\n".join(p for p in paragraphs if not _BLOCK.match(p))


def _sentences(text: str, keep, lean: bool = True) -> str:
    # A full stop inside a mark never ends a sentence: marks are set aside while the text is split.
    text = prose(text)
    found = marks(text)
    counter = iter(range(len(found)))
    slotted = CLOZE.sub(lambda _m: _SLOT.format(next(counter)), text)
    parts = _SENTENCE_END.split(" ".join(slotted.split()))
    chosen = {n for n, p in enumerate(parts) if keep({found[int(i)].number for i in _SLOT_RE.findall(p)})}
    # "They run fastest when..." and "NeMo applies it as ..." say nothing alone: a sentence that opens on
    # a pronoun, or refers back with it/its/they/them/their anywhere, brings the one before (and so on)
    for n in sorted(chosen, reverse=True):
        while lean and n and leans_back(parts[n]):
            n -= 1
            chosen.add(n)
    kept = [p for n, p in enumerate(parts) if n in chosen]
    return _SLOT_RE.sub(lambda m: text[found[int(m[1])].start : found[int(m[1])].end], " ".join(kept))
