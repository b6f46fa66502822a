"""`text`: write a word, a phrase or a paragraph (QTI's textEntry / extendedText). Response: the text.

Score: 1 when the typed answer's `answer_key` is one of the accepted answers'; without accepted answers a
person judges (the site has the learner compare with the model answer; an LMS makes it an essay).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from pipeline.shapes.grading import Verdict, answer_key
from pipeline.shapes.registry import Shape


@dataclass(frozen=True)
class Text:
    """Write an answer. With `accepted` answers it is graded automatically (a fill-in); without, the
    learner compares with the model answer (self-graded on the site, an essay in an LMS)."""

    shape: ClassVar[str] = "text"
    accepted: tuple[str, ...]  # plain-text answers a grader accepts, compared by grading.answer_key
    model_answer_md: str | None  # the model answer shown after answering
    long: bool = False  # a paragraph rather than a word or phrase (an essay box, not a one-line field)

    @property
    def auto(self) -> bool:
        return bool(self.accepted)

    def answer_md(self) -> str:
        return self.model_answer_md or " / ".join(self.accepted)


def rule(part: Text) -> dict:
    return {"shape": "text", "accepted": sorted({answer_key(a) for a in part.accepted})}


def grade(data: dict, response: object) -> Verdict:
    if not data["accepted"]:
        return Verdict(0.0, None)
    right = answer_key(str(response)) in data["accepted"]
    return Verdict(1.0 if right else 0.0, right)


SHAPE = Shape(
    "text", Text, rule, grade, right_answers=lambda part: [part.model_answer_md or "", *part.accepted],
    self_graded=lambda part: not part.auto,
    writers={"bank": "pipeline.shapes.text.outputs.bank:write", "guide": "pipeline.shapes.text.outputs.guide:write",
             "anki_front": "pipeline.shapes.text.outputs.anki:front", "anki_back": "pipeline.shapes.text.outputs.anki:back",
             "moodle": "pipeline.shapes.text.outputs.moodle:write", "qti21": "pipeline.shapes.text.outputs.qti21:write",
             "canvas": "pipeline.shapes.text.outputs.canvas:write", "gift": "pipeline.shapes.text.outputs.gift:write",
             "stats_key": "pipeline.stats.match:no_fields", "stats_read": "pipeline.stats.responses:read_as_given"},
    docs="write a word, a phrase or a paragraph",
    rank=2,
)
