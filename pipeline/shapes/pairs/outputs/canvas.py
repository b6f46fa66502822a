"""canvas-qti.zip: a matching_question."""

from __future__ import annotations

from pipeline.render.lms.canvas import _mattext
from pipeline.shapes.pairs import Pairs
from pipeline.text.plaintext import to_plain


def write(part: Pairs) -> tuple[str, str, str]:
    """One response per prompt, each offering every answer; each right pair adds an equal share."""
    labels = "".join(f'<response_label ident="{a.id}">{_mattext(to_plain(a.text_md), "text/plain")}</response_label>' for a in part.answers)
    responses = "".join(f'<response_lid ident="response_{p.id}">{_mattext(to_plain(p.text_md), "text/plain")}'
                        f"<render_choice>{labels}</render_choice></response_lid>" for p in part.prompts)
    step = f"{100 / len(part.prompts):.2f}"
    conditions = "".join(f'<respcondition><conditionvar><varequal respident="response_{p.id}">{p.answer_id}</varequal></conditionvar>'
                         f'<setvar varname="SCORE" action="Add">{step}</setvar></respcondition>' for p in part.prompts)
    return "matching_question", responses, conditions, ",".join(a.id for a in part.answers)
