"""`pairs`: match each prompt with an answer (QTI's matchInteraction). Response: prompt id -> answer id.

Score: each prompt matched adds an equal share (partial credit); right when all are matched.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from pipeline.shapes.grading import Verdict
from pipeline.shapes.registry import Shape


@dataclass(frozen=True)
class Prompt:
    """A matching prompt, in the author's order, with the id of the answer that matches it."""

    id: str  # p1, p2... by source position
    text_md: str
    answer_id: str


@dataclass(frozen=True)
class Item:
    """A matching answer or a sequence item, in display order; `letter` is its display position."""

    id: str  # matching answers m1, m2... (the pairs' answers, then the extras); sequence items i1.. in correct order
    text_md: str
    letter: str


@dataclass(frozen=True)
class Pairs:
    """Match each prompt with its answer; `answers` may hold more than the prompts need (distractors)."""

    shape: ClassVar[str] = "pairs"
    prompts: tuple[Prompt, ...]  # the author's order
    answers: tuple[Item, ...]  # display order

    def answer_of(self, prompt: Prompt) -> Item:
        return next(a for a in self.answers if a.id == prompt.answer_id)

    def answer_md(self) -> str:
        return "; ".join(f"{n}. {p.text_md} → {self.answer_of(p).letter}. {self.answer_of(p).text_md}"
                         for n, p in enumerate(self.prompts, start=1))


def rule(part: Pairs) -> dict:
    return {"shape": "pairs", "pairs": {p.id: p.answer_id for p in part.prompts}}


def grade(data: dict, response: object) -> Verdict:
    matched = sum(1 for p, a in data["pairs"].items() if dict(response).get(p) == a)
    return Verdict(matched / len(data["pairs"]), matched == len(data["pairs"]))


SHAPE = Shape(
    "pairs", Pairs, rule, grade,
    right_answers=lambda part: [text for p in part.prompts for text in (p.text_md, part.answer_of(p).text_md)],
    writers={"bank": "pipeline.shapes.pairs.outputs.bank:write", "guide": "pipeline.shapes.pairs.outputs.guide:write",
             "anki_front": "pipeline.shapes.pairs.outputs.anki:front", "anki_back": "pipeline.shapes.pairs.outputs.anki:back",
             "moodle": "pipeline.shapes.pairs.outputs.moodle:write", "qti21": "pipeline.shapes.pairs.outputs.qti21:write",
             "canvas": "pipeline.shapes.pairs.outputs.canvas:write", "gift": "pipeline.shapes.pairs.outputs.gift:write",
             "stats_key": "pipeline.shapes.pairs.outputs.stats:fields", "stats_read": "pipeline.shapes.pairs.outputs.stats:read"},
    docs="match each prompt with an answer",
    extra={"anki_cards": "pipeline.shapes.pairs.outputs.anki:cards"},  # a long matching: several cards
    rank=3,
)
