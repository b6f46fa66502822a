"""`sources/<exam>/item-stats.json`: the committed result of `stats`, read back by `validate`.

Written atomically, keys sorted, floats rounded, learners never named (only counts). Read back as an
untrusted file: at most MAX_BYTES, nesting at most MAX_DEPTH, then validated against the models below
(unknown keys refused). A file that fails any of that stops the run with exit 2 and says how to repair it.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pipeline.errors import UsageError
from pipeline.publish import readback
from pipeline.publish.atomic import write_atomic
from pipeline.text.prog import COMMAND, command

NAME = "item-stats.json"
FORMAT = 1
MAX_BYTES = 20_000_000
MAX_DEPTH = 8  # the file needs 5 levels
ABOUT = f"Written by `{COMMAND} stats`: item statistics from learners' answers. Commit it; do not edit it by hand."
Share = Annotated[float, Field(ge=0.0, le=1.0)]
Correlation = Annotated[float, Field(ge=-1.0, le=1.0)]
Count = Annotated[int, Field(ge=0, le=100_000_000)]
Weight = Annotated[int | float, Field(ge=0, le=100_000_000)]  # a group's count, fractional when learners tie at the cut


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class OptionRecord(_Model):
    count: Count
    share: Share
    upper: Weight
    lower: Weight
    point_biserial: Correlation | None = None
    correct: bool


class VariantRecord(_Model):
    """One variant's answers in its question's pooled record: what the homogeneity test across variants reads."""

    n: Count
    facility: Share | None = None
    right: Count | None = None  # answers with full marks (None: known only from a platform's statistics)


class ItemRecord(_Model):
    hash: Annotated[str, Field(pattern=r"^[0-9a-f]{16}$")]
    source: Annotated[str, Field(max_length=40)]
    n: Count
    facility: Share | None = None
    point_biserial: Correlation | None = None
    discrimination_index: Annotated[float, Field(ge=-1.0, le=1.0)] | None = None
    alpha_if_deleted: float | None = None
    options: Annotated[dict[str, OptionRecord], Field(max_length=64)] | None = None
    strongest_choice: str | None = None
    irt: dict[Literal["a", "b"], float] | None = None
    # a varied question's record pools its variants' answers (`pipeline.stats.variant_pooling`); each variant has its own record
    variants: Annotated[dict[str, VariantRecord], Field(max_length=100)] | None = None


class FileRecord(_Model):
    name: Annotated[str, Field(max_length=255)]
    format: Annotated[str, Field(max_length=40)]
    rows: Count
    answers: Count
    unmatched: Count


class ItemStatsFile(_Model):
    about: str
    format: Literal[1]
    exam: str
    date: dt.date
    first_attempts_only: bool
    files: Annotated[list[FileRecord], Field(max_length=1000)]
    learners: Count
    answers: Count
    later_attempts: Count
    alpha: float | None = None
    alpha_learners: Count
    irt_note: str = ""
    since: dt.date | None = None  # `--since`: only attempts on or after this day (UTC) counted
    before_since: Count | None = None  # answers left out by it (older, or without a time)
    items: Annotated[dict[str, ItemRecord], Field(max_length=100_000)]


class ItemStatsError(UsageError):
    """The file exists but cannot be read: a machine-written file is broken (exit 2)."""

    def __init__(self, path: Path, reason: str, line: int = 1, col: int = 1) -> None:
        super().__init__(f"{path}:{line}:{col}: error: the item statistics cannot be read ({reason}); "
                         f"restore the file from git, or run `{command('stats')}` again on the answers")


def load(exam_folder: Path) -> ItemStatsFile | None:
    """The exam's item statistics, or None when it has none; read back as any committed file
    (`pipeline.publish.readback`: bounded size and nesting, the problem's line and column)."""
    path = exam_folder / NAME
    if not path.exists():
        return None
    try:
        raw, text = readback.load(path, MAX_BYTES, MAX_DEPTH)
    except readback.Unreadable as exc:
        raise ItemStatsError(path, exc.reason, exc.line, exc.col) from None
    try:
        return ItemStatsFile.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "the file"
        raise ItemStatsError(path, f"{where}: {first['msg']}", *readback.position(text, tuple(first["loc"]))) from None


def save(exam_folder: Path, data: ItemStatsFile) -> Path:
    path = exam_folder / NAME
    text = json.dumps(data.model_dump(mode="json", exclude_none=True), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    write_atomic(path, text.encode("utf-8"))
    return path
