"""bank.json: the items in the right order, with their HTML."""

from __future__ import annotations

from pipeline.render.bank import _choice
from pipeline.shapes.sequence import Sequence
from schema.bank import SequencePart


def write(p: Sequence) -> SequencePart:
    return SequencePart(shape="sequence", items=[_choice(i) for i in p.items], correct_order=list(p.correct_order))
