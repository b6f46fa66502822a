"""What "today" may be: the checks of `--today` and `SOURCE_DATE_EPOCH` as text. Reading them (the
environment, the clock) is the reader's (pipeline/settings/reader.py); this module only judges the text."""

from __future__ import annotations

import datetime as dt

from pipeline.errors import UsageError

# ZIP files (the Anki deck) store dates from 1980 to 2107; an epoch outside cannot be written into them.
EPOCH_RANGE = (315_532_800, 4_354_819_199)


def parse_date(text: str, what: str = "--today") -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise UsageError(f"error: {what} {text!r} is not a real date; expected YYYY-MM-DD") from None


def parse_epoch(raw: str) -> dt.datetime | None:
    """The instant a `SOURCE_DATE_EPOCH` value names (UTC), or None when it is empty."""
    raw = raw.strip()
    if not raw:
        return None
    if not raw.isdigit():
        raise UsageError(f"error: SOURCE_DATE_EPOCH={raw!r} is not a whole number of seconds since 1970-01-01")
    if not EPOCH_RANGE[0] <= int(raw) <= EPOCH_RANGE[1]:
        raise UsageError(f"error: SOURCE_DATE_EPOCH={raw} is outside 1980-01-01 to 2107-12-31, the dates a deck (a ZIP file) can hold")
    return dt.datetime.fromtimestamp(int(raw), tz=dt.UTC)
