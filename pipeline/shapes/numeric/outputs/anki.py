"""The deck: the unit to give the number in on the front, the answer on the back."""

from __future__ import annotations

from html import escape

from pipeline.shapes.numeric import Numeric


def front(part: Numeric) -> str:
    return f'<div class="unit">Give the number in {escape(part.unit)}.</div>' if part.unit else ""


def back(part: Numeric) -> str:
    return escape(part.answer_md())
