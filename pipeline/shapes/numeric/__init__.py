"""`numeric`: give a number within a tolerance (QTI's textEntry with a float range). Response: the text typed.

Score: 1 when low <= the number typed <= high (grading.parse_number reads it, with the part's units).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from pipeline.shapes.grading import RATIO_UNITS, Verdict, parse_number, unit_key
from pipeline.shapes.registry import Shape


@dataclass(frozen=True)
class Numeric:
    """Give a number: right when within [low, high]. The bounds are computed once, exactly, from the
    numbers as written (decimal arithmetic), so every grader compares against the same two floats."""

    shape: ClassVar[str] = "numeric"
    value: float
    value_text: str  # as the author wrote it ("3.14"): what outputs print
    low: float
    high: float
    tolerance: float  # absolute, >= 0 (a relative tolerance is resolved against the value)
    tolerance_text: str  # as written: "0.01" or "2%"; "" for an exact answer
    unit: str | None = None
    # the answer is a ratio ("how many times"): "4x" and "4 times" are read as 4; derived from the stem and
    # the unit, so not part of the question's content hash
    ratio: bool = field(default=False, metadata={"content": False})

    def answer_md(self) -> str:
        unit = f" {self.unit}" if self.unit else ""
        within = f" (± {self.tolerance_text})" if self.tolerance_text else ""
        return f"{self.value_text}{unit}{within}"


def units_of(part: Numeric) -> list[str]:
    """The units a learner may type after the number, as `unit_key`s."""
    own = [unit_key(part.unit)] if part.unit else []
    return sorted({*own, *(RATIO_UNITS if part.ratio else ())})


def rule(part: Numeric) -> dict:
    return {"shape": "numeric", "low": part.low, "high": part.high, "units": units_of(part)}


def grade(data: dict, response: object) -> Verdict:
    number = parse_number(str(response), data["units"])
    right = number is not None and data["low"] <= number <= data["high"]
    return Verdict(1.0 if right else 0.0, right)


SHAPE = Shape(
    "numeric", Numeric, rule, grade, right_answers=lambda part: [],  # a number names no term
    writers={"bank": "pipeline.shapes.numeric.outputs.bank:write", "guide": "pipeline.shapes.numeric.outputs.guide:write",
             "anki_front": "pipeline.shapes.numeric.outputs.anki:front", "anki_back": "pipeline.shapes.numeric.outputs.anki:back",
             "moodle": "pipeline.shapes.numeric.outputs.moodle:write", "qti21": "pipeline.shapes.numeric.outputs.qti21:write",
             "canvas": "pipeline.shapes.numeric.outputs.canvas:write", "gift": "pipeline.shapes.numeric.outputs.gift:write",
             "stats_key": "pipeline.stats.match:no_fields", "stats_read": "pipeline.stats.responses:read_as_given"},
    docs="give a number, within a tolerance",
    extra={"tolerance": lambda part: (part.value, part.low, part.high)},
    rank=5,
)
