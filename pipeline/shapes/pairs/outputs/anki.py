"""The deck: a matching card's fields, and a long matching split over several cards (`cards`)."""

from __future__ import annotations

from dataclasses import replace

from pipeline.render.anki.card_fields import _lettered, inline_html
from pipeline.shapes.order import LETTERS
from pipeline.shapes.pairs import Pairs
from pipeline.view.model import QuestionView

CARD_PAIRS = 4  # a matching card holds at most four pairs: more is a page to read, not a card to recall


def front(part: Pairs) -> str:
    # prompts numbered 1, 2... and answers lettered A, B...: the back says "1. prompt → B. answer"
    prompts = "".join(f"<li>{inline_html(p.text_md)}</li>" for p in part.prompts).join(('<ol class="prompts" type="1">', "</ol>"))
    return prompts + '<div class="label">Answers</div>' + _lettered(part.answers)


def back(part: Pairs) -> str:
    lines = [f"{n}. {inline_html(p.text_md)} → {part.answer_of(p).letter}. {inline_html(part.answer_of(p).text_md)}"
             for n, p in enumerate(part.prompts, start=1)]
    return "".join(f"<li>{line}</li>" for line in lines).join(("<ul>", "</ul>"))


def cards(question: QuestionView, part: Pairs) -> list[tuple[str, QuestionView]]:
    """A matching question as cards of at most CARD_PAIRS pairs, each with its pairs' answers, the extra
    answers and (when it has none) one answer of another part, so no card's last pair falls out by
    elimination; letters re-drawn per card. With CARD_PAIRS or fewer it stays one card under its own id."""
    if len(part.prompts) <= CARD_PAIRS:
        return [(question.id, question)]
    chunks = [part.prompts[i : i + CARD_PAIRS] for i in range(0, len(part.prompts), CARD_PAIRS)]
    matched = {p.answer_id for p in part.prompts}
    extras = {a.id for a in part.answers if a.id not in matched}
    found = []
    for n, chunk in enumerate(chunks, start=1):
        own = {p.answer_id for p in chunk}
        wrong = extras or {next(p.answer_id for c in chunks if c is not chunk for p in c)}
        shown = [a for a in part.answers if a.id in own | wrong]
        answers = tuple(replace(a, letter=LETTERS[i]) for i, a in enumerate(shown))
        found.append((f"{question.id}#part-{n}", replace(question, parts=(replace(part, prompts=chunk, answers=answers),))))
    return found
