"""canvas-qti.zip: a numerical_question, the exact value or anything in the range."""

from __future__ import annotations

from pipeline.render.lms.canvas import _full_marks, _number, _text_response
from pipeline.shapes.numeric import Numeric


def write(part: Numeric) -> tuple[str, str, str]:
    """`numerical_question` as Canvas exports an answer with a margin: the exact value, or anything in the range."""
    condition = (f'<or><varequal respident="response1">{_number(part.value)}</varequal><and>'
                 f'<vargte respident="response1">{_number(part.low)}</vargte><varlte respident="response1">{_number(part.high)}</varlte>'
                 "</and></or>")
    return "numerical_question", _text_response("Decimal"), _full_marks(condition), ""
