"""What the parsers give: mapped answers, statistics a platform already computed, and unmatched rows."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from pipeline.errors import PipelineError


class StatsInputError(PipelineError):
    """A response file that cannot be read as the format it claims (or as any): exit 1, nothing written."""

    def __init__(self, path: Path, row: int, message: str, line: int | None = None) -> None:
        where = f"row {row}" + (f" (line {line})" if line and line != row else "")
        super().__init__(f"{path}: {where}: error: {message}")
        self.path, self.row, self.line = path, row, line


class Answer(NamedTuple):
    """One learner's answer to one question, mapped to the exam's ids (a tuple: a file holds a million)."""

    learner: str
    question_id: str
    response: str  # as given, for the report
    choices: tuple[str, ...] | None  # option ids chosen (choice questions); None for other types
    score: float  # 0..1, the fraction of the question's marks
    time: dt.datetime | None
    order: int  # position in its file: the tie-breaker for "first attempt"
    file: str  # the file's name (one string shared by its rows)

    @property
    def where(self) -> str:
        return f"{self.file}:{self.order}"


@dataclass(frozen=True)
class PlatformItem:
    """An item's statistics as a platform computed them (no per-learner rows behind them)."""

    question_id: str
    n: int
    facility: float | None
    discrimination: float | None  # the platform's item-rest (Moodle) or point-biserial (Canvas) correlation
    option_counts: dict[str, int] | None = None
    option_point_biserials: dict[str, float] | None = None
    platform: str = ""


@dataclass(frozen=True)
class Unmatched:
    """A row (or a column) that maps to no question, with why."""

    path: Path
    row: int
    reason: str

    def format(self) -> str:
        return f"{self.path}: row {self.row}: unmatched: {self.reason}"


@dataclass
class Parsed:
    """One file, read: its format, the answers and platform items it gave, and what did not map."""

    path: Path
    format: str
    rows: int = 0
    answers: list[Answer] = field(default_factory=list)
    items: list[PlatformItem] = field(default_factory=list)
    unmatched: list[Unmatched] = field(default_factory=list)  # the first intake.MAX_UNMATCHED_KEPT of a long file
    unmatched_count: int = 0  # every unmatched row
    answered: int = 0  # answers mapped to a question (before first attempts are chosen)
    # Moodle's Statistics download names each slot's question; a Responses report of the same quiz uses it
    slots: dict[str, str] = field(default_factory=dict)
