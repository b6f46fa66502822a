"""questions.gift: {=right ~wrong}, {~%50%a ~%-100%b} for several right, or {T}/{F}."""

from __future__ import annotations

from pipeline.render.lms import share
from pipeline.render.lms.text import gift_answer, inline_html
from pipeline.shapes.choices import Choices


def write(part: Choices) -> tuple[str, list[str]]:
    if part.true_false:
        return "", ["TRUE" if part.correct[0].id == "true" else "FALSE"]
    if not part.multiple:
        return "", [f"{'=' if o.correct else '~'}{gift_answer(inline_html(o.text_md))}" for o in part.options]
    right, wrong = len(part.correct), len(part.options) - len(part.correct)
    return "", [f"~%{share(right) if o.correct else '-' + share(wrong)}%{gift_answer(inline_html(o.text_md))}" for o in part.options]
