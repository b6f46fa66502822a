"""canvas-qti.zip: short_answer_question or essay_question."""

from __future__ import annotations

from xml.sax.saxutils import escape

from pipeline.render.lms.canvas import _full_marks, _text_response
from pipeline.shapes.text import Text


def write(part: Text) -> tuple[str, str, str]:
    """A fill-in (`short_answer_question`: Canvas compares case-insensitively); without accepted answers, an essay."""
    if part.auto:
        condition = "".join(f'<varequal respident="response1">{escape(a)}</varequal>' for a in part.accepted)
        return "short_answer_question", _text_response(), _full_marks(condition), ""
    return "essay_question", _text_response(), '<respcondition continue="No"><conditionvar><other/></conditionvar></respcondition>', ""
