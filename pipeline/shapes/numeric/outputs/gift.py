"""questions.gift: {#=value:tolerance} (GIFT has no units: the stem names it)."""

from __future__ import annotations

from pipeline.render.lms.gift import _number
from pipeline.shapes.numeric import Numeric


def write(part: Numeric) -> tuple[str, list[str]]:
    """`{#` then `=value:tolerance`; GIFT has no units (the stem names it)."""
    return "#", [f"={_number(part.value)}:{_number(part.tolerance)}"]
