"""A new lock from an audit's results: what the lock keeps, and what it deliberately does not.

Every quote in the sources gets an entry; quotes no longer in the sources lose theirs. A verdict on the
page (found, drifted, missing, dead, unsupported, and archived or moved) replaces the old entry, dated today. A fault of the
network or the server (blocked, unreachable) says nothing about the words: the old entry stays as it was,
with its old date, which goes stale in due course; a quote never checked stays `unchecked`. So an audit
run without network access (as on the machine the sample was written on) invents nothing.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from pipeline.citations.check import Pair
from pipeline.citations.lock import CitationLock, LockEntry
from pipeline.citations.status import TRANSIENT, Status
from pipeline.citations.verdict import CitationResult


def entry_for(result: CitationResult, today: dt.date, before: LockEntry) -> LockEntry:
    """The entry for a verdict; the passage kept around the quote carries over when this audit took none
    (a page gone today may come back, and is then compared with what the author read)."""
    found = result.status in (Status.FOUND, Status.MOVED, Status.ARCHIVED)
    kept = result.kept
    context = (kept.context, kept.fingerprint, kept.date) if kept else (before.context, before.context_fingerprint, before.context_date)
    return LockEntry(
        result.url, result.quote, result.status, today, result.match, result.score if result.match else None,
        result.final_url, result.http_status, result.fingerprint, None if found else result.closest, result.detail or None,
        result.archive_url, result.archive_timestamp, result.moved_to, *context, result.warnings,
    )


def updated(lock: CitationLock, pairs: Iterable[Pair], results: dict[Pair, CitationResult], today: dt.date) -> CitationLock:
    """The lock after an audit of `pairs` (this exam's citations) that gave `results`."""
    entries = {}
    for pair in dict.fromkeys(pairs):
        result = results.get(pair)
        if result is None or result.status in TRANSIENT:
            entries[pair] = lock.entry(*pair)
        else:
            entries[pair] = entry_for(result, today, lock.entry(*pair))
    return CitationLock(lock.path, entries)
