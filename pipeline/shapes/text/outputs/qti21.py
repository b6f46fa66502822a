"""qti21.zip: a textEntry (accepted answers) or an extendedText (a model answer only)."""

from __future__ import annotations

from pipeline.render.lms.qti21 import SCORING, _declaration, _mapping
from pipeline.shapes.text import Text


def write(part: Text) -> tuple[str, str, str]:
    """A fill-in: textEntry, accepted answers mapped case-insensitively; without them, extendedText for a person."""
    if not part.auto:
        interaction = '<extendedTextInteraction responseIdentifier="RESPONSE" expectedLines="10"/>'
        return _declaration("single", "string", []), interaction, ""
    mapping = _mapping([(a, 1.0) for a in part.accepted], ' caseSensitive="false"')
    length = max(len(a) for a in part.accepted) + 5
    interaction = f'<p><textEntryInteraction responseIdentifier="RESPONSE" expectedLength="{length}"/></p>'
    return _declaration("single", "string", list(part.accepted[:1]), mapping), interaction, SCORING["map"]
