"""qti21.zip: a float textEntryInteraction, right within [low, high]."""

from __future__ import annotations

from xml.sax.saxutils import escape

from pipeline.render.lms.qti21 import _declaration, _range
from pipeline.shapes.numeric import Numeric


def write(part: Numeric) -> tuple[str, str, str]:
    """A float textEntry, right within [low, high] (response processing written out, as for the others)."""
    width = max(len(part.value_text), 4) + 4
    interaction = f'<p><textEntryInteraction responseIdentifier="RESPONSE" expectedLength="{width}"/>{_unit(part)}</p>'
    return _declaration("single", "float", [repr(part.value)]), interaction, _range(part.low, part.high)


def _unit(part: Numeric) -> str:
    return f" {escape(part.unit)}" if part.unit else ""
