"""The guide's answer key: "1. model / weights; 2. batch" (the question's look is ../guide.html.j2)."""

from __future__ import annotations

from pipeline.shapes.cloze import Cloze


def key(part: Cloze) -> str:
    return "; ".join(f"{n}. {' / '.join(g.accepted)}" for n, g in enumerate(part.gaps, start=1))
