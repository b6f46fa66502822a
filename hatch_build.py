"""Build hook: before hatchling gathers the wheel's files, check that the ones it must carry are there.

A missing forced include otherwise ends `pip install .` in a long traceback that never says what to do. Here a
missing file is one line naming it and the fix, and the build stops (pip shows that line as the build's output).
The list is kept here, not imported from pipeline/: the build runs in pip's isolated environment, where the
pipeline's dependencies are not installed.
"""

from __future__ import annotations

import sys
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

# What the wheel carries beyond the Python packages: the templates (pyproject.toml's force-include) and the npm
# package the study site ships, committed in pipeline/vendor/ (pipeline/render/vendor.py reads it).
NEEDED = ("templates", "pipeline/vendor/ts-fsrs/package.json", "pipeline/vendor/ts-fsrs/LICENSE",
          "pipeline/vendor/ts-fsrs/dist/index.umd.js")


def missing(root: Path) -> list[str]:
    """The needed paths that are not under `root`."""
    return [name for name in NEEDED if not (root / name).exists()]


class CheckFiles(BuildHookInterface):
    """Stops the build with one line when a file the wheel carries is missing."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        gone = missing(Path(self.root))
        if gone:
            sys.stderr.write(f"error: the wheel needs {', '.join(gone)}, missing from {self.root}: restore {'it' if len(gone) == 1 else 'them'} "
                             "(`git checkout -- .` in a clone, or download the project again)\n")
            raise SystemExit(1)
