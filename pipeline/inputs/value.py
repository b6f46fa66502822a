"""The value a stage below the command line is handed instead of reading files, the environment or the
clock itself: an exam's content with everything beside it that its outputs depend on, read once by
pipeline/settings/reader.py."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # only names: importing the value (for `Dates`) loads no lock model (pydantic), as a no-op run needs
    from pipeline.citations.lock import CitationLock
    from pipeline.examples.lock import ExamplesLock
    from pipeline.load.content import ExamContent
    from pipeline.variants.lock import VariantsLock


@dataclass(frozen=True)
class Dates:
    """What "today" is for this run, decided once: `--today`, else `SOURCE_DATE_EPOCH`'s day, else the clock's.
    `epoch` is `SOURCE_DATE_EPOCH` (None when unset): when set it is also the build's date (deterministic outputs)."""

    today: dt.date
    epoch: dt.datetime | None = None


@dataclass(frozen=True)
class ExamInputs:
    """One exam's inputs: its validated content, its three locks, its item statistics (None when it has none or
    the command did not ask for them), the newest time any of its files changed, and the run's dates."""

    content: ExamContent
    citations: CitationLock
    examples: ExamplesLock
    variants: VariantsLock
    dates: Dates
    changed_at: int = 0  # whole seconds (as Anki stores times): the newest of the sources' and the locks' times
    stats: object | None = None  # a pipeline.stats.store.ItemStatsFile: named loosely, the stats stage sits above this package

    @property
    def source_date(self) -> dt.datetime:
        """The build's date: SOURCE_DATE_EPOCH when set, else the latest review date in the sources (midnight
        UTC), never the clock, so the same sources build the same outputs."""
        if self.dates.epoch:
            return self.dates.epoch
        latest = max([self.content.exam.reviewed, *(o.reviewed for o in self.content.objectives)])
        return dt.datetime.combine(latest, dt.time(), tzinfo=dt.UTC)
