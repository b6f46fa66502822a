"""The deck: the items as shown on the front, the right order on the back."""

from __future__ import annotations

from pipeline.render.anki.card_fields import _lettered, inline_html
from pipeline.shapes.sequence import Sequence


def back(part: Sequence) -> str:
    return "".join(f"<li>{i.letter}. {inline_html(i.text_md)}</li>" for i in part.in_order()).join(("<ol>", "</ol>"))


def front(part: Sequence) -> str:
    return _lettered(part.items)
