"""The study guide's options (`paper` in pipeline.toml, `build --paper`), as the settings file is checked against.

The choices, default and help stay on the registry's light `PAPER` (pipeline/render/__init__.py): argparse and
the no-op build read them without importing pydantic; this model is built from that one declaration.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from pipeline.render import PAPER


def _lower(value: Any) -> Any:
    """`LETTER` is `letter`: the command line takes any case (type=str.lower), so the file does too."""
    return value.lower() if isinstance(value, str) else value


class GuideOptions(BaseModel):
    """What a `[exams.ID]` table or the top level of pipeline.toml may set for the guide."""

    model_config = ConfigDict(extra="forbid", strict=True)

    paper: Annotated[Literal[PAPER.choices], BeforeValidator(_lower)] | None = Field(None, description=PAPER.help)  # type: ignore[valid-type]
