"""`questions.gift`: the questions in Moodle's GIFT text format.

Each objective starts with a `$CATEGORY:` line in a block of its own; each question is one block
titled with its id, its text marked `[html]` and GIFT-escaped (`\\ ~ = # { } :` and line breaks),
the explanation and citations as general feedback (`####`). GIFT has no ordering question
(the ordering plug-in's own syntax is not GIFT), so ordering questions are skipped with a warning.
Multiple-answer weights are Moodle grade values: correct options share 100%, wrong ones -100%.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.render.lms import exportable, kind, share
from pipeline.render.lms.moodle import category_path
from pipeline.render.lms.text import block_html, feedback_html, gift_answer, gift_escape, inline_html, plain
from pipeline.view.model import QuestionView

if TYPE_CHECKING:
    from pipeline.render import RenderContext

NAME = "questions.gift"
TYPES = frozenset({"single", "multiple", "true_false", "short_answer", "matching"})
SKIPPED = {"ordering": "GIFT has no ordering question; use moodle.xml (Moodle 4.4+) or qti21.zip"}


def _html(html_text: str) -> str:
    return "[html]" + gift_escape(html_text)


def _choices(q: QuestionView) -> list[str]:
    if q.type == "single":
        return [f"{'=' if o.correct else '~'}{gift_answer(inline_html(o.text_md))}" for o in q.options]
    right, wrong = len(q.correct_options), len(q.options) - len(q.correct_options)
    return [f"~%{share(right) if o.correct else '-' + share(wrong)}%{gift_answer(inline_html(o.text_md))}" for o in q.options]


def _true_false(q: QuestionView) -> list[str]:
    return ["TRUE" if q.answer_md == "True" else "FALSE"]


def _fill_in(q: QuestionView) -> list[str]:
    """Accepted answers are plain text; `*` is a wildcard in Moodle's short answers, so it is escaped."""
    return [f"={gift_escape(a.replace('*', chr(92) + '*'))}" for a in q.accepted_answers]


def _matching(q: QuestionView) -> list[str]:
    """`=prompt -> answer` per pair, then `= -> extra` per extra answer (the answer side is plain text)."""
    text = {a.id: plain(a.text_md) for a in q.answers}
    used = {p.answer_id for p in q.pairs}
    lines = [f"={gift_answer(inline_html(p.prompt_md))} -> {gift_escape(text[p.answer_id])}" for p in q.pairs]
    return lines + [f"= -> {gift_escape(text[a.id])}" for a in q.answers if a.id not in used]


BODY = {"single": _choices, "multiple": _choices, "true_false": _true_false, "fill_in": _fill_in,
        "essay": lambda q: [], "matching": _matching}


def question_gift(q: QuestionView) -> str:
    """`::id::[html]stem{` answers, one a line, `####[html]feedback }`; the answers inherit the stem's format."""
    answers = "".join(f"\n  {line}" for line in BODY[kind(q)](q))
    return f"::{gift_escape(q.id)}::{_html(block_html(q.stem_md))}{{{answers}\n  ####{_html(feedback_html(q))}\n}}"


def gift_text(questions: list[QuestionView]) -> str:
    blocks, category = [], None
    for q in questions:
        if category_path(q) != category:
            category = category_path(q)
            blocks.append(f"$CATEGORY: {category}")
        blocks.append(question_gift(q))
    return "\n\n".join(blocks) + "\n"


def render(ctx: RenderContext) -> list[Path]:
    path = ctx.out_dir / NAME
    path.write_bytes(gift_text(exportable(ctx.view.questions, TYPES, "gift", SKIPPED, ctx.warnings)).encode("utf-8"))
    return [path]
