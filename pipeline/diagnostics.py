"""Diagnostics: every problem found in the sources, as `path:line:col: severity: message`, and the `Position`
(line:col) that places it, which the loader and `SourceError` carry too.

Checks never print and never stop at the first problem: they add diagnostics to a `Report`, and the
CLI prints the report once, sorted by file and line, the format editors and CI annotators jump to.
Each diagnostic carries its check's code (pipeline/check/codes.py), printed as `[code]` at the end.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import Path

from pipeline.text.terminal import for_terminal


@dataclass(frozen=True, order=True)
class Position:
    """A place in a source file: line and column, both counted from 1 as editors show them."""

    line: int
    col: int


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, order=True)
class Diagnostic:
    path: Path
    position: Position
    severity: Severity
    message: str
    code: str = ""  # names the check (e.g. "review-stale"), so severities can be tuned per check
    details: str = ""  # lines shown under the message, indented (a drifted example's diff)

    def format(self, relative_to: Path | None = None) -> str:
        """`path:line:col: severity: message [code]`, the path relative to `relative_to` (default: the cwd),
        then any details, each line indented four spaces (editors and CI annotators read the first line)."""
        shown = os.path.relpath(self.path, relative_to or Path.cwd())
        code = f" [{self.code}]" if self.code else ""
        # a file name, a quote or a lock's address may hold control characters: one inert line, always
        # (and each line of the details likewise: a diff of what an example printed is the example's text)
        details = "".join(f"\n    {for_terminal(line)}" for line in self.details.splitlines())
        return for_terminal(f"{shown}:{self.position.line}:{self.position.col}: {self.severity.value}: {self.message}{code}") + details


@dataclass
class Report:
    """Diagnostics collected over a whole run."""

    items: list[Diagnostic] = field(default_factory=list)

    def error(self, path: Path, position: Position, message: str, code: str = "", details: str = "") -> None:
        self.items.append(Diagnostic(path, position, Severity.ERROR, message, code, details))

    def warning(self, path: Path, position: Position, message: str, code: str = "", details: str = "") -> None:
        self.items.append(Diagnostic(path, position, Severity.WARNING, message, code, details))

    def extend(self, other: Report) -> None:
        self.items.extend(other.items)

    def promote_warnings(self) -> None:
        """`--strict`: every warning becomes an error."""
        self.items = [replace(d, severity=Severity.ERROR) for d in self.items]

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity is Severity.WARNING]

    def sorted(self) -> list[Diagnostic]:
        """By file, then line and column; duplicates (the same message at the same place) once."""
        return sorted(set(self.items), key=lambda d: (str(d.path), d.position, d.severity.value, d.message))
