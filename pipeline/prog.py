"""The name the pipeline was started by, for messages that tell the author what to run next.

Installed, the command is `exam-prep` (pyproject.toml's console script); from a checkout it is also
`python -m pipeline`. A message names the one the author just typed, so it can be pasted back as it is.
"""

from __future__ import annotations

COMMAND = "exam-prep"
_started_as = COMMAND


def started_as(name: str) -> None:
    """Set by pipeline/__main__.py: `python -m pipeline` was typed."""
    global _started_as
    _started_as = name


def prog() -> str:
    return _started_as
