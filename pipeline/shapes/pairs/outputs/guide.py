"""The guide's answer key: each prompt with its answer."""

from __future__ import annotations

from pipeline.shapes.pairs import Pairs


def write(part: Pairs) -> str:
    return ", ".join(f"{n}–{part.answer_of(p).letter}" for n, p in enumerate(part.prompts, start=1))
