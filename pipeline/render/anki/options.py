"""The deck's options (`variants` in pipeline.toml, `build --variants`), as the settings file is checked against.

The choices, default and help stay on the registry's light `VARIANTS` (pipeline/render/__init__.py): argparse and
the no-op build read them without importing pydantic; this model is built from that one declaration.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from pipeline.render import VARIANTS


def _lower(value: Any) -> Any:
    """`LETTER` is `letter`: the command line takes any case (type=str.lower), so the file does too."""
    return value.lower() if isinstance(value, str) else value


class DeckOptions(BaseModel):
    """What a `[exams.ID]` table or the top level of pipeline.toml may set for the deck."""

    model_config = ConfigDict(extra="forbid", strict=True)

    variants: Annotated[Literal[VARIANTS.choices], BeforeValidator(_lower)] | None = Field(None, description=VARIANTS.help)  # type: ignore[valid-type]
