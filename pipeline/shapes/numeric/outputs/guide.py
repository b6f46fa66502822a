"""The guide's answer key: the value, its unit and tolerance (the part's answer text)."""

from __future__ import annotations

from pipeline.shapes.numeric import Numeric


def write(part: Numeric) -> str:
    return part.answer_md()
