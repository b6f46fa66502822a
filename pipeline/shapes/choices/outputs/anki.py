"""The deck: the options lettered on the front, the right ones on the back."""

from __future__ import annotations

from html import escape

from pipeline.render.anki.card_fields import _lettered, inline_html
from pipeline.shapes.choices import Choices


def front(part: Choices) -> str:
    return "" if part.true_false else _lettered(part.options)


def back(part: Choices) -> str:
    """True / False for a statement; else every option where the front showed it, the right ones marked."""
    if part.true_false:
        return escape(part.correct[0].text_md)
    items = "".join(f'<li class="{"right" if o.correct else "dim"}">{inline_html(o.text_md)}{" ✓" if o.correct else ""}</li>' for o in part.options)
    return f'<ol type="A" class="marked">{items}</ol>'
