"""`Low-Rank Adaptation` -> `low-rank-adaptation`: the one rule for names made from titles and terms
(term ids and anchors, objective file names)."""

from __future__ import annotations

import re
import unicodedata


def slug(text: str) -> str:
    """Lower-case ASCII words joined by dashes; accents dropped (Über -> uber); empty when nothing is left."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
