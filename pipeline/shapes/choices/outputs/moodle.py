"""moodle.xml: multichoice (one or several right), or truefalse for a statement."""

from __future__ import annotations

from pipeline.render.lms import share
from pipeline.render.lms.moodle import NO_FEEDBACK, _files
from pipeline.render.lms.text import cdata, inline_html
from pipeline.shapes.choices import Choices


def _fraction(part: Choices, correct: bool) -> str:
    if not part.multiple:
        return "100" if correct else "0"
    right = len(part.correct)
    return share(right) if correct else f"-{share(len(part.options) - right)}"


def write(part: Choices) -> tuple[str, list[str]]:
    if part.true_false:
        return "truefalse", [f'<answer fraction="{"100" if o.correct else "0"}" format="moodle_auto_format"><text>{o.id}</text>{NO_FEEDBACK}</answer>'
                             for o in part.options]
    lines = [f"<single>{'false' if part.multiple else 'true'}</single>", "<shuffleanswers>false</shuffleanswers>",
             "<answernumbering>ABCD</answernumbering>", "<showstandardinstruction>1</showstandardinstruction>"]
    for o in part.options:
        text = inline_html(o.text_md)
        lines.append(f'<answer fraction="{_fraction(part, o.correct)}" format="html"><text>{cdata(text)}</text>{_files(text)}{NO_FEEDBACK}</answer>')
    return "multichoice", lines
