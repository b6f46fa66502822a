"""The deck: nothing beside the stem on the front (the answer is typed or said), the answers on the back."""

from __future__ import annotations

from html import escape

from pipeline.shapes.text import Text


def back(part: Text) -> str:
    """A fill-in's accepted answers (the model answer has a field of its own)."""
    return " / ".join(escape(a) for a in part.accepted) if part.auto and not part.model_answer_md else ""


def front(part: Text) -> str:
    return ""
