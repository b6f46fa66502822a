"""moodle.xml: a numerical question, the value with its absolute tolerance and an optional, ungraded unit."""

from __future__ import annotations

from xml.sax.saxutils import escape

from pipeline.render.lms.moodle import NO_FEEDBACK, _number
from pipeline.shapes.numeric import Numeric


def write(part: Numeric) -> tuple[str, list[str]]:
    """`numerical`: the value with its absolute tolerance. A unit, when given, may be typed after the number
    (showunits 0, an input) and is optional (unitgradingtype 0: not graded), so "3.14" and "3.14 GB" both score."""
    lines = [f'<answer fraction="100" format="moodle_auto_format"><text>{_number(part.value)}</text>{NO_FEEDBACK}'
             f"<tolerance>{_number(part.tolerance)}</tolerance></answer>"]
    if part.unit:
        lines += [f"<units><unit><multiplier>1</multiplier><unit_name>{escape(part.unit)}</unit_name></unit></units>",
                  "<unitgradingtype>0</unitgradingtype>", "<unitpenalty>0.1000000</unitpenalty>", "<showunits>0</showunits>",
                  "<unitsleft>0</unitsleft>"]
    return "numerical", lines
