"""bank.json: the segments, their HTML and each gap's accepted answers (../bank.py's model)."""

from __future__ import annotations

from pipeline.shapes.cloze import Cloze
from pipeline.shapes.cloze.bank import BankGap, ClozePart
from pipeline.text.markdown import to_inline_html


def write(part: Cloze) -> ClozePart:
    return ClozePart(shape="cloze", segments=list(part.segments), segments_html=[to_inline_html(s) for s in part.segments],
                     gaps=[BankGap(id=g.id, accepted=list(g.accepted)) for g in part.gaps])
