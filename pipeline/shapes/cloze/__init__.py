"""`cloze`: fill in the blanks of a passage, several gaps, each with its own accepted answers (QTI: several
textEntryInteraction in one item; Moodle's Cloze, Canvas's fill-in-multiple-blanks). Response: the texts
typed, one per gap, in the passage's order.

Score: each gap whose typed answer's `answer_key` is one of that gap's accepted answers' adds an equal share
(partial credit, as pairs); right when every gap is. This folder is the whole shape: the dataclass and rule
here, its bank.json model (bank.py), its question type for authors (question.py), its output writers
(outputs/, one module per output, in the renderers' layer), and its site files (site.html.j2, site.answer.html.j2, site.js) and
guide template (guide.html.j2), which pipeline/render/shape_files.py finds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from pipeline.shapes.cloze.bank import ClozePart
from pipeline.shapes.grading import Verdict, answer_key
from pipeline.shapes.registry import Reason, Shape

GAP = "[___]"  # how an author marks a gap in the passage: brackets around three underscores


@dataclass(frozen=True)
class Gap:
    id: str  # g1, g2... in the passage's order
    accepted: tuple[str, ...]  # plain-text answers, compared by grading.answer_key; the first is the one printed


@dataclass(frozen=True)
class Cloze:
    """A passage with gaps: `segments` are the Markdown around them (one more than the gaps)."""

    shape: ClassVar[str] = "cloze"
    segments: tuple[str, ...]
    gaps: tuple[Gap, ...]

    def woven(self, gap: Callable[[Gap, int], str], text: Callable[[str], str] = lambda s: s) -> str:
        """The passage with each segment through `text` and each gap (and its number, from 1) through `gap`."""
        out = [text(self.segments[0])]
        for n, (g, after) in enumerate(zip(self.gaps, self.segments[1:], strict=True), start=1):
            out += [gap(g, n), text(after)]
        return "".join(out)

    def answer_md(self) -> str:
        """The passage with each gap filled by its first accepted answer, in bold."""
        return self.woven(lambda g, n: f"**{g.accepted[0]}**")


def rule(part: Cloze) -> dict:
    return {"shape": "cloze", "gaps": [sorted({answer_key(a) for a in g.accepted}) for g in part.gaps]}


def grade(data: dict, response: object) -> Verdict:
    given = list(response) + [""] * (len(data["gaps"]) - len(response))
    matched = sum(1 for typed, accepted in zip(given, data["gaps"], strict=False) if answer_key(str(typed)) in accepted)
    return Verdict(matched / len(data["gaps"]), matched == len(data["gaps"]))


def read(key, raw: str, form: str) -> tuple[None, list[str]]:
    """A response as `stats` finds it: "ids" (the long format) is the gaps' texts in order, "a|b", or by id,
    "g1=a|g2=b"; "summary" (Moodle's responses report of a Cloze question) is "part 1: a; part 2: b"."""
    if form == "ids":
        cells = [c.strip() for c in raw.split("|")]
        if all("=" in c for c in cells):
            by_id = dict(c.split("=", 1) for c in cells)
            return None, [by_id.get(f"g{n}", "").strip() for n in range(1, len(key.rule["gaps"]) + 1)]
        return None, cells
    parts = {}
    for cell in raw.split("; "):
        head, _, text = cell.partition(": ")
        if head.strip().lower().startswith("part ") and head.strip()[5:].isdigit():
            parts[int(head.strip()[5:])] = text.strip()
    return None, [parts.get(n, "") for n in range(1, len(key.rule["gaps"]) + 1)]


SHAPE = Shape(
    "cloze", Cloze, rule, grade,
    right_answers=lambda part: [*part.segments, *(a for g in part.gaps for a in g.accepted)],
    writers={"bank": "pipeline.shapes.cloze.outputs.bank:write", "guide": "pipeline.shapes.cloze.outputs.guide:key",
             "anki_front": "pipeline.shapes.cloze.outputs.anki:front", "anki_back": "pipeline.shapes.cloze.outputs.anki:back",
             "moodle": "pipeline.shapes.cloze.outputs.moodle:write", "qti21": "pipeline.shapes.cloze.outputs.qti21:write",
             "canvas": "pipeline.shapes.cloze.outputs.canvas:write",
             "gift": Reason("GIFT holds one blank per question (a missing word), not a passage of several gaps scored together; "
                            "use moodle.xml (a Cloze question), qti21.zip or canvas-qti.zip"),
             "stats_key": "pipeline.stats.match:no_fields", "stats_read": "pipeline.shapes.cloze:read"},
    folder=Path(__file__).parent, bank_model=ClozePart, docs="fill in several gaps of a passage", rank=6,
)
