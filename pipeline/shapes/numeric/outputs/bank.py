"""bank.json: the value as written, its tolerance and the window [low, high] every grader compares against."""

from __future__ import annotations

from pipeline.shapes.numeric import Numeric
from schema.bank import NumericPart


def write(p: Numeric) -> NumericPart:
    return NumericPart(shape="numeric", value=p.value, value_text=p.value_text, tolerance=p.tolerance, tolerance_text=p.tolerance_text,
                       low=p.low, high=p.high, unit=p.unit)
