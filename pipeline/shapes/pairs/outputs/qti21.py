"""qti21.zip: a matchInteraction."""

from __future__ import annotations

from pipeline.render.lms.qti21 import SCORING, _declaration, _mapping, inline_html
from pipeline.shapes.pairs import Pairs


def write(part: Pairs) -> tuple[str, str, str]:
    sources = "".join(f'<simpleAssociableChoice identifier="{p.id}" matchMax="1">{inline_html(p.text_md)}</simpleAssociableChoice>' for p in part.prompts)
    targets = "".join(f'<simpleAssociableChoice identifier="{a.id}" matchMax="1">{inline_html(a.text_md)}</simpleAssociableChoice>' for a in part.answers)
    pairs = [f"{p.id} {p.answer_id}" for p in part.prompts]
    interaction = (f'<matchInteraction responseIdentifier="RESPONSE" shuffle="false" maxAssociations="{len(part.prompts)}">'
                   f"<simpleMatchSet>{sources}</simpleMatchSet><simpleMatchSet>{targets}</simpleMatchSet></matchInteraction>")
    return _declaration("multiple", "directedPair", pairs, _mapping([(p, 1 / len(pairs)) for p in pairs])), interaction, SCORING["map"]
