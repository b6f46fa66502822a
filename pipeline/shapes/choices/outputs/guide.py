"""The guide's answer key: the right letters (or True / False)."""

from __future__ import annotations

from pipeline.shapes.choices import Choices


def write(part: Choices) -> str:
    return part.correct[0].text_md if part.true_false else ", ".join(o.letter for o in part.correct)
