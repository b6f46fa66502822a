"""qti21.zip: one string textEntryInteraction per gap, each with its own mapped declaration; SCORE their mean."""

from __future__ import annotations

from pipeline.render.lms import qti21 as qti
from pipeline.render.lms import text
from pipeline.shapes.cloze import Cloze, Gap


def _qti_id(gap: Gap) -> str:
    return f"RESPONSE_{gap.id.upper()}"


_ANY_CASE = ' caseSensitive="false"'  # as a text part's accepted answers are mapped


def write(part: Cloze) -> tuple[str, str, str]:
    declarations = "".join(
        f'<responseDeclaration identifier="{_qti_id(g)}" cardinality="single" baseType="string">'
        f"<correctResponse>{qti._value(g.accepted[0])}</correctResponse>"
        f"{qti._mapping([(a, 1.0) for a in g.accepted], _ANY_CASE)}</responseDeclaration>"
        for g in part.gaps)

    def entry(g: Gap, n: int) -> str:
        return f'<textEntryInteraction responseIdentifier="{_qti_id(g)}" expectedLength="{max(len(a) for a in g.accepted) + 5}"/>'
    interaction = f'<p class="cloze-passage">{part.woven(entry, text.inline_html)}</p>'
    mapped = "".join(f'<mapResponse identifier="{_qti_id(g)}"/>' for g in part.gaps)
    processing = qti._set_score(f'<divide><sum>{mapped}</sum><baseValue baseType="float">{len(part.gaps)}</baseValue></divide>')
    return declarations, interaction, processing
