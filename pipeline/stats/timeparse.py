"""Times in exports: ISO 8601 (the long format, Canvas) and Moodle's "1 December 2026  3:04 PM"."""

from __future__ import annotations

import datetime as dt
import re

_MOODLE = re.compile(r"^\s*(?:[A-Za-z]+,?\s+)?(\d{1,2})\s+([A-Za-z]+)\s+(\d{4}),?\s+(\d{1,2}):(\d{2})\s*([AaPp][Mm])?\s*$")
_MONTHS = {m: i for i, m in enumerate(("january", "february", "march", "april", "may", "june", "july", "august", "september",
                                         "october", "november", "december"), start=1)}


def iso(text: str) -> dt.datetime | None:
    """An ISO 8601 time with a zone (`Z` or an offset), as UTC; None for an empty cell; ValueError otherwise."""
    text = text.strip()
    if not text:
        return None
    when = dt.datetime.fromisoformat(text)  # Python 3.11 reads "Z" and a space for "T"
    if when.tzinfo is None:
        raise ValueError("no time zone (end it with Z or an offset such as +01:00)")
    return when.astimezone(dt.UTC)


def moodle(text: str) -> dt.datetime | None:
    """Moodle's strftimedatetime ("1 December 2026, 3:04 PM", commas made spaces in downloads); None if not one."""
    m = _MOODLE.match(text)
    if not m or m.group(2).lower() not in _MONTHS:
        return None
    day, month, year, hour, minute, half = int(m.group(1)), _MONTHS[m.group(2).lower()], int(m.group(3)), int(m.group(4)), int(m.group(5)), m.group(6)
    if half:
        hour = hour % 12 + (12 if half.lower() == "pm" else 0)
    try:
        return dt.datetime(year, month, day, hour, minute, tzinfo=dt.UTC)
    except ValueError:
        return None
