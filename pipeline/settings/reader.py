"""The one reader: the only module below the command line that reads the environment, the clock or a
lock file (tests/test_inputs.py holds every other module to that). The command line calls it once per
run (and per exam) and hands the value down; `serve`'s rebuilds each get a new Reader from the command line.

What it reads: `SOURCE_DATE_EPOCH` and `--today` (`dates`), the environment handed to the examples' pip
(`environ`), and beside each exam's sources the citation, examples and variants locks, `item-stats.json`
when asked, and the newest time any of those files changed (`exam_inputs`).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

from pipeline.inputs.clock import parse_date, parse_epoch
from pipeline.inputs.value import Dates, ExamInputs

if TYPE_CHECKING:
    from pipeline.load.content import ExamContent


def environ() -> Mapping[str, str]:
    """The process environment, for what hands parts of it on (the examples' pip: PATH, HOME, PIP_*)."""
    return os.environ


def source_date_epoch() -> dt.datetime | None:
    """The instant `SOURCE_DATE_EPOCH` names (UTC), or None when it is unset."""
    return parse_epoch(os.environ.get("SOURCE_DATE_EPOCH", ""))


def dates(option: str | None = None) -> Dates:
    """`--today`, else `SOURCE_DATE_EPOCH`'s day, else the clock's; and the epoch, which pins the build's date."""
    epoch = source_date_epoch()
    if option:
        return Dates(parse_date(option), epoch)
    return Dates(epoch.date() if epoch else dt.date.today(), epoch)


def resolve_today(option: str | None) -> dt.date:
    return dates(option).today


def exam_inputs(content: ExamContent, run: Dates | None = None, *, stats: bool = False) -> ExamInputs:
    """Everything beside an exam's sources that its view and outputs depend on, read now (a lock that cannot
    be read raises its own error, exit 2). `stats` reads item-stats.json too: validate's judge of it needs it
    (`validate` and `build` ask for it); `stats`, `audit`, `examples` and `variants` do not (`stats` rewrites it)."""
    from pipeline.citations.lock import CitationLock  # here: a no-op run (dates only) loads no lock model
    from pipeline.examples.lock import ExamplesLock
    from pipeline.stats import store
    from pipeline.variants.lock import VariantsLock

    folder = content.folder
    return ExamInputs(
        content, CitationLock.load(folder), ExamplesLock.load(folder), VariantsLock.load(folder), run or dates(),
        changed_at=_newest_mtime(content), stats=store.load(folder) if stats else None,
    )


def _newest_mtime(content: ExamContent) -> int:
    """Whole seconds, as Anki stores times: any edit to a source file (or a new lock) makes it newer."""
    from pipeline.citations.lock import LOCK_NAME as CITATIONS_LOCK
    from pipeline.examples.lock import LOCK_NAME as EXAMPLES_LOCK
    from pipeline.variants.unchanged import LOCK_NAME as VARIANTS_LOCK

    files = [content.exam_file.path, *(f.path for f in content.objective_files),
             *(content.folder / name for name in (CITATIONS_LOCK, EXAMPLES_LOCK, VARIANTS_LOCK))]
    return max(p.stat().st_mtime_ns for p in files if p.is_file()) // 1_000_000_000


class Reader:
    """One run's inputs, each read once: the dates when made, an exam's locks when first asked (by exam id).
    Handed to `validate` (its lock checks and judges) and then to `build`: the same reading serves both. The
    content asked with is the one returned (validate resolves cross-references into a new content value)."""

    def __init__(self, today: str | None = None, *, stats: bool = False) -> None:
        self.dates, self.stats = dates(today), stats
        self._read: dict[str, ExamInputs] = {}

    def __call__(self, content: ExamContent) -> ExamInputs:
        read = self._read.get(content.exam.id)
        if read is None:
            read = self._read[content.exam.id] = exam_inputs(content, self.dates, stats=self.stats)
        return read if read.content is content else dataclasses.replace(read, content=content)
