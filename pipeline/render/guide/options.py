"""The study guide's options (`paper` in pipeline.toml, `build --paper`), as the settings file is checked against.

The choices, default and help stay on the registry's light `PAPER` (pipeline/render/__init__.py): argparse and
the no-op build read them without importing pydantic; this model is built from that one declaration.
"""

from __future__ import annotations

from pipeline.render import PAPER
from pipeline.render.option_fields import OutputOptions, choice, described

Paper = choice(PAPER)


class GuideOptions(OutputOptions):
    """What a `[exams.ID]` table or the top level of pipeline.toml may set for the guide."""

    paper: Paper = described(PAPER)
