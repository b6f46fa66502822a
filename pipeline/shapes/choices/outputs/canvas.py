"""canvas-qti.zip: multiple_choice_question, multiple_answers_question or true_false_question."""

from __future__ import annotations

from pipeline.render.lms.canvas import _full_marks, _mattext, inline_html
from pipeline.shapes.choices import Choices


def _labels(part: Choices) -> str:
    return "".join(f'<response_label ident="{o.id}">{_mattext(inline_html(o.text_md))}</response_label>' for o in part.options)


def write(part: Choices) -> tuple[str, str, str]:
    cardinality = "Multiple" if part.multiple else "Single"
    response = f'<response_lid ident="response1" rcardinality="{cardinality}"><render_choice>{_labels(part)}</render_choice></response_lid>'
    if part.multiple:
        tests = "".join(f'<varequal respident="response1">{o.id}</varequal>' if o.correct else
                        f'<not><varequal respident="response1">{o.id}</varequal></not>' for o in part.options)
        kind, condition = "multiple_answers_question", f"<and>{tests}</and>"
    else:
        kind = "true_false_question" if part.true_false else "multiple_choice_question"
        condition = f'<varequal respident="response1">{part.correct[0].id}</varequal>'
    return kind, response, _full_marks(condition), ",".join(o.id for o in part.options)
