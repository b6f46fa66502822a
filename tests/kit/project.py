"""A copy of the project as a fresh clone has it, for tests that run its Makefile or read its files."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.conftest import ROOT


def project_copy(target: Path) -> Path:
    """The project as a fresh clone has it (no .venv, build/, caches), in `target`."""
    ignore = shutil.ignore_patterns(".venv", "build", ".git", "__pycache__", ".pytest_cache", ".ruff_cache", "*.pyc")
    shutil.copytree(ROOT, target, ignore=ignore)
    return target
