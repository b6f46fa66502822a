"""What "today" is: `--today`, else `SOURCE_DATE_EPOCH`, else the clock, so tests and builds can pin it."""

from __future__ import annotations

import datetime as dt
import os

from pipeline.errors import UsageError

# ZIP files (the Anki deck) store dates from 1980 to 2107; an epoch outside cannot be written into them.
EPOCH_RANGE = (315_532_800, 4_354_819_199)


def parse_date(text: str, what: str = "--today") -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise UsageError(f"error: {what} {text!r} is not a real date; expected YYYY-MM-DD") from None


def source_date_epoch() -> dt.datetime | None:
    """The instant `SOURCE_DATE_EPOCH` names (UTC), or None when it is unset."""
    raw = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not raw:
        return None
    if not raw.isdigit():
        raise UsageError(f"error: SOURCE_DATE_EPOCH={raw!r} is not a whole number of seconds since 1970-01-01")
    if not EPOCH_RANGE[0] <= int(raw) <= EPOCH_RANGE[1]:
        raise UsageError(f"error: SOURCE_DATE_EPOCH={raw} is outside 1980-01-01 to 2107-12-31, the dates a deck (a ZIP file) can hold")
    return dt.datetime.fromtimestamp(int(raw), tz=dt.UTC)


def resolve_today(option: str | None) -> dt.date:
    if option:
        return parse_date(option)
    epoch = source_date_epoch()
    return epoch.date() if epoch else dt.date.today()
