"""The deck: the passage with numbered blanks on the front, filled (answers in bold) on the back."""

from __future__ import annotations

from html import escape

from pipeline.render.anki import card_fields
from pipeline.shapes.cloze import Cloze


def _gap(text: str) -> str:
    return f'<span class="cloze-gap">{text}</span>'


def front(part: Cloze) -> str:
    return f'<p class="cloze-passage">{part.woven(lambda g, n: _gap(f"[{n}] ____"), card_fields.inline_html)}</p>'


def back(part: Cloze) -> str:
    return f'<p class="cloze-passage">{part.woven(lambda g, n: _gap(f"[{n}] {escape(g.accepted[0])}"), card_fields.inline_html)}</p>'
