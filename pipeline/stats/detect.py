"""Which export a file is, from its header row; a file of no known layout is an error naming what is read,
and a header that is almost a known layout (most of its columns there) names the columns it misses, the
names expected and the closest ones it has (`pipeline.stats.columns`)."""

from __future__ import annotations

from types import ModuleType

from pipeline.stats.columns import find, near_miss
from pipeline.stats.csvfile import Table
from pipeline.stats.formats import FORMATS
from pipeline.stats.records import StatsInputError


def detect(table: Table) -> ModuleType:
    for fmt in FORMATS:
        if fmt.detects(table.header):
            return fmt
    nearest = _nearest(table.header)
    if nearest is not None:
        fmt, found = nearest
        raise StatsInputError(table.path, 1, f"{near_miss(table.header, fmt.TITLE, found)}; rename the column, or download the report "
                                             "again with that column shown")
    shown = ", ".join(repr(h) for h in table.header[:5]) + (", ..." if len(table.header) > 5 else "")
    known = "; ".join(f"{fmt.TITLE}" for fmt in FORMATS)
    raise StatsInputError(table.path, 1, f"header {shown} is not one this command reads; expected one of: {known} "
                                         "(see the documentation's 'Item statistics' page; the long format's header is learner,question_id,response,score,time)")


def _nearest(header: list[str]):
    """The layout the header nearly is (most of its required columns found, the fewest missing), if any."""
    candidates = [(fmt, found) for fmt in FORMATS if (found := find(header, fmt.COLUMNS)).nearly and found.missing]
    return min(candidates, key=lambda c: (len(c[1].missing), -c[1].required)) if candidates else None
