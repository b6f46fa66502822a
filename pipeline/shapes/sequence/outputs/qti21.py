"""qti21.zip: an orderInteraction."""

from __future__ import annotations

from pipeline.render.lms.qti21 import SCORING, _declaration, inline_html
from pipeline.shapes.sequence import Sequence


def write(part: Sequence) -> tuple[str, str, str]:
    choices = "".join(f'<simpleChoice identifier="{i.id}">{inline_html(i.text_md)}</simpleChoice>' for i in part.items)
    interaction = f'<orderInteraction responseIdentifier="RESPONSE" shuffle="false">{choices}</orderInteraction>'
    return _declaration("ordered", "identifier", list(part.correct_order)), interaction, SCORING["correct"]
