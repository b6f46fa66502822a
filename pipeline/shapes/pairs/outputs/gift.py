"""questions.gift: a matching question {=prompt -> answer}."""

from __future__ import annotations

from pipeline.render.lms.text import gift_answer, gift_escape, inline_html
from pipeline.shapes.pairs import Pairs
from pipeline.text.plaintext import to_plain


def write(part: Pairs) -> tuple[str, list[str]]:
    """`=prompt -> answer` per pair, then `= -> extra` per extra answer (the answer side is plain text)."""
    used = {p.answer_id for p in part.prompts}
    lines = [f"={gift_answer(inline_html(p.text_md))} -> {gift_escape(to_plain(part.answer_of(p).text_md))}" for p in part.prompts]
    return "", lines + [f"= -> {gift_escape(to_plain(a.text_md))}" for a in part.answers if a.id not in used]
