"""`numeric`: the answer is a number, right within a tolerance (`numeric` shape), with an optional unit.

    - id: 6.1-q11
      type: numeric
      stem: By what factor does int8 dynamic quantization shrink the weights of FP32 Linear layers?
      answer: 4
      tolerance: 0.1          # absolute; or "2%" of the answer; leave out for an exact answer
      unit: x                 # optional: shown after the box, and a learner may type it

The bounds are worked out once, in decimal arithmetic from the numbers as written, so 3.14 ± 0.01 takes
3.13 and 3.15 exactly (binary floating point alone would refuse 3.15).
"""

from __future__ import annotations

import math
import re
from decimal import Decimal
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, StrictFloat, StrictInt, StringConstraints

from pipeline.questions.base import Problem, QuestionBase, QuestionType
from pipeline.shapes.parts import Numeric
from pipeline.vocabulary.fields import Text
from pipeline.vocabulary.variant_fields import Placeholder


def _finite(value: float) -> float:
    if not math.isfinite(value):
        raise ValueError("must be a finite number")
    return value


Number = Annotated[StrictInt | StrictFloat, AfterValidator(_finite)]
Percent = Annotated[str, StringConstraints(pattern=r"^[0-9]+(\.[0-9]+)?%$")]


class NumericQuestion(QuestionBase):
    """Give a number: `answer` is the number, right within `tolerance`."""

    type: Literal["numeric"] = Field(description="numeric: the answer is a number, within a tolerance.")
    answer: Number | Placeholder = Field(description="The right number, e.g. 4 or 3.14 (not quoted); in a varied question `{{ name }}`.")
    tolerance: Number | Percent | Placeholder = Field(default=0, description="How far from the answer still counts as right: a number (absolute, e.g. 0.01) or a percentage of the answer (\"2%\"); 0, the default, asks for the exact number; in a varied question `{{ name }}`.")
    unit: Text | None = Field(default=None, description="The unit the number is in (e.g. GB), shown after the answer box; a learner may type it after the number.")


def written(value: float) -> str:
    """A number as an author would write it: 4, not 4.0; 3.14, not 3.1400000000000001 (a varied question's
    `{{ name }}` as it stands: its variants are numbers)."""
    if isinstance(value, str):
        return value
    return str(int(value)) if float(value).is_integer() and abs(value) < 1e15 else repr(float(value))


def _tolerance(q: NumericQuestion) -> Decimal:
    if isinstance(q.tolerance, str):
        return abs(Decimal(written(q.answer))) * Decimal(q.tolerance.removesuffix("%")) / 100
    return Decimal(written(q.tolerance))


# A ratio: the unit says so, or the stem asks "how many times", for a ratio or a factor.
_RATIO_UNIT = re.compile(r"^(?:x|×|times|fold)$", re.IGNORECASE)
_RATIO_STEM = re.compile(r"\bhow many times\b|\bratio\b|\bfactor\b|-fold\b", re.IGNORECASE)


def is_ratio(q: NumericQuestion) -> bool:
    """Whether the answer is a ratio, so "4x", "4×" and "4 times" are read as the number 4."""
    return bool(q.unit and _RATIO_UNIT.match(q.unit)) or bool(_RATIO_STEM.search(q.stem))


def parts(q: NumericQuestion) -> tuple[Numeric]:
    value, tolerance = Decimal(written(q.answer)), _tolerance(q)
    shown = "" if not tolerance else (q.tolerance if isinstance(q.tolerance, str) else written(q.tolerance))
    return (Numeric(value=float(q.answer), value_text=written(q.answer), low=float(value - tolerance), high=float(value + tolerance),
                    tolerance=float(tolerance), tolerance_text=shown, unit=q.unit, ratio=is_ratio(q)),)


def check(q: NumericQuestion) -> list[Problem]:
    if not isinstance(q.tolerance, str) and q.tolerance < 0:
        return [Problem(("tolerance",), f"must not be negative, got {written(q.tolerance)}; write how far either side of the answer counts", "question-answer")]
    if isinstance(q.tolerance, str) and Decimal(q.tolerance.removesuffix("%")) > 100:
        return [Problem(("tolerance",), f"{q.tolerance} would accept numbers of the other sign; a relative tolerance is at most 100%", "question-answer")]
    return []


def _prompt(q: NumericQuestion) -> str:
    return f"Give the number, in {q.unit}." if q.unit else "Give the number."


TYPE = QuestionType("numeric", NumericQuestion, "Give the number.",
                    "right when the number given is within the tolerance of the answer (a unit typed after it is accepted)",
                    parts, check, answer_words=lambda q: f"{written(q.answer)} {q.unit or ''}".strip(), prompt_of=_prompt, rank=7)
