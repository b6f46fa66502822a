"""The deck's options (`variants` in pipeline.toml, `build --variants`), as the settings file is checked against.

The choices, default and help stay on the registry's light `VARIANTS` (pipeline/render/__init__.py): argparse
and the no-op build read them without importing pydantic; this model is built from that one declaration.
"""

from __future__ import annotations

from pipeline.render import VARIANTS
from pipeline.render.option_fields import OutputOptions, choice, described

Variants = choice(VARIANTS)


class DeckOptions(OutputOptions):
    """What a `[exams.ID]` table or the top level of pipeline.toml may set for the deck."""

    variants: Variants = described(VARIANTS)
