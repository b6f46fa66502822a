"""canvas-qti.zip: fill_in_multiple_blanks_question, [g1] [g2] in the text, one response per blank, each adding an
equal share of 100."""

from __future__ import annotations

from html import escape

from pipeline.render.lms import text
from pipeline.shapes.cloze import Cloze, Gap


def write(part: Cloze) -> tuple[str, str, str, str, str]:
    def label(g: Gap, i: int) -> str:
        return f"{g.id}_{i}"
    responses = "".join(
        f'<response_lid ident="response_{g.id}"><material><mattext>{g.id}</mattext></material><render_choice>'
        + "".join(f'<response_label ident="{label(g, i)}"><material><mattext texttype="text/plain">{escape(a)}</mattext></material></response_label>'
                  for i, a in enumerate(g.accepted, start=1))
        + "</render_choice></response_lid>" for g in part.gaps)
    step = f"{100 / len(part.gaps):.2f}"

    def right(g: Gap) -> str:  # any of the gap's accepted answers
        return "".join(f'<varequal respident="response_{g.id}">{label(g, i)}</varequal>' for i in range(1, len(g.accepted) + 1))
    scoring = "".join(f'<respcondition><conditionvar>{right(g)}</conditionvar><setvar varname="SCORE" action="Add">{step}</setvar></respcondition>'
                      for g in part.gaps)
    ids = ",".join(label(g, i) for g in part.gaps for i in range(1, len(g.accepted) + 1))
    passage = f'<p class="cloze-passage">{part.woven(lambda g, n: f"[{g.id}]", text.inline_html)}</p>'
    return "fill_in_multiple_blanks_question", responses, scoring, ids, passage
