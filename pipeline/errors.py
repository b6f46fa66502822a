"""The pipeline's exceptions: a small tree, caught once in `pipeline.cli.main`.

Model and loader code raise these with a plain sentence; the CLI prints them and exits 1 (2 for a
`UsageError`). Anything else is a bug (exit 3, see `pipeline.console.crash`).
"""

from __future__ import annotations

from pathlib import Path

from pipeline.diagnostics import Position


class PipelineError(Exception):
    """A problem the user can fix; its message is printed as it is."""


class UsageError(PipelineError):
    """A problem with how the pipeline was run or with its environment (exit 2): a bad option or setting,
    an unwritable, missing or full output folder, a corrupt lock."""


class SourcesNotFound(UsageError):
    """The sources folder is missing or holds no exam."""


class SourceError(PipelineError):
    """A problem at a place in one source file (unreadable, not UTF-8, invalid YAML)."""

    def __init__(self, path: Path, position: Position, message: str) -> None:
        super().__init__(message)
        self.path = path
        self.position = position
        self.message = message
