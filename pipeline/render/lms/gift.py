"""`questions.gift`: the questions in Moodle's GIFT text format.

Each objective starts with a `$CATEGORY:` line in a block of its own; each question is one block
titled with its id, its text marked `[html]` and GIFT-escaped (`\\ ~ = # { } :` and line breaks),
the explanation and citations as general feedback (`####`). GIFT has no ordering question
(the ordering plug-in's own syntax is not GIFT), so a sequence is skipped with a warning; a number is
`{#=value:tolerance}`.
Multiple-answer weights are Moodle grade values: correct options share 100%, wrong ones -100%.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.render.lms.moodle import category_path
from pipeline.render.lms.text import block_html, feedback_html, gift_escape
from pipeline.render.lms.variants import flattened
from pipeline.render.support import writable, writers_for
from pipeline.shapes import registry
from pipeline.shapes.parts import Part
from pipeline.view.model import QuestionView

if TYPE_CHECKING:
    from pipeline.render import RenderContext

NAME = "questions.gift"


def _html(html_text: str) -> str:
    return "[html]" + gift_escape(html_text)


def _number(value: float) -> str:
    return repr(value) if value != int(value) else str(int(value))




def question_gift(q: QuestionView) -> str:
    """`::id::[html]stem{` answers, one a line, `####[html]feedback }`; the answers inherit the stem's format."""
    part: Part = q.parts[0]
    mark, lines = registry.writer(part, "gift")(part)
    answers = "".join(f"\n  {line}" for line in lines)
    return f"::{gift_escape(q.id)}::{_html(block_html(q.stem_md))}{{{mark}{answers}\n  ####{_html(feedback_html(q))}\n}}"


def gift_text(questions: list[QuestionView]) -> str:
    blocks, category = [], None
    for q in flattened(questions):  # a varied question: its variants, under a $CATEGORY of their own
        if category_path(q) != category:
            category = category_path(q)
            blocks.append(f"$CATEGORY: {category}")
        blocks.append(question_gift(q))
    return "\n\n".join(blocks) + "\n"


def render(ctx: RenderContext) -> list[Path]:
    path = ctx.out_dir / NAME
    questions = [q for q in writable(ctx.view.questions, writers_for("gift"), "gift", ctx.warnings, max_parts=1) if _no_file(q, ctx.warnings)]
    path.write_bytes(gift_text(questions).encode("utf-8"))
    return [path]


def _no_file(q: QuestionView, warnings: list[str]) -> bool:
    """GIFT is text alone: a question that shows an image would point at a file the import does not have,
    so it is left out, with a warning naming the formats that carry it (never a broken reference)."""
    if "@@PLUGINFILE@@/" not in question_gift(q):
        return True
    warnings.append(f"gift: question {q.id} ({q.type}) skipped: it shows an image and GIFT cannot carry a file; "
                    "use moodle.xml, which embeds it")
    return False
