"""Which export a file is, from its header row; a file of no known layout is an error naming what is read."""

from __future__ import annotations

from types import ModuleType

from pipeline.stats.csvfile import Table
from pipeline.stats.formats import FORMATS
from pipeline.stats.records import StatsInputError


def detect(table: Table) -> ModuleType:
    for fmt in FORMATS:
        if fmt.detects(table.header):
            return fmt
    shown = ", ".join(repr(h) for h in table.header[:5]) + (", ..." if len(table.header) > 5 else "")
    known = "; ".join(f"{fmt.TITLE}" for fmt in FORMATS)
    raise StatsInputError(table.path, 1, f"header {shown} is not one this command reads; expected one of: {known} "
                                         "(see the documentation's 'Item statistics' page; the long format's header is learner,question_id,response,score,time)")
