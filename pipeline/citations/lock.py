"""The citation lock: `sources/<exam>/citations.lock.json`, the committed result of checking every quote.

`audit` writes it; builds read it offline: renderers show each quote's check status and date from it, and
`validate` turns it into diagnostics (`pipeline.citations.lockcheck`). An entry is keyed by (url, quote).
A quote with no entry, or an `unchecked` one, has never been checked.

The file is written in a fixed order (by url, then quote), keys sorted, and atomically (a temporary file
in the same folder, then `os.replace`): an audit killed at any point leaves the old lock or the new one.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import asdict, dataclass
from pathlib import Path

from pipeline.errors import UsageError
from pipeline.prog import prog
from pipeline.publish.atomic import write_atomic
from schema.citation_status import Status

LOCK_NAME = "citations.lock.json"
UNCHECKED = Status.UNCHECKED
FORMAT = 1
ABOUT = "Written by `python -m pipeline audit` (make audit): one entry per cited (url, quote). Commit it; do not edit it by hand."


class LockError(UsageError):
    """The lock file exists but cannot be read: a machine-written file is broken, not the content (exit 2)."""

    def __init__(self, path: Path, reason: str, line: int = 1, col: int = 1) -> None:
        super().__init__(f"{path}:{line}:{col}: error: the citation lock cannot be read ({reason}); restore it from git or run `{prog()} audit`")
        self.path, self.reason, self.line, self.col = path, reason, line, col


@dataclass(frozen=True)
class LockEntry:
    url: str
    quote: str
    status: Status
    checked: dt.date | None = None
    match: str | None = None
    score: float | None = None
    final_url: str | None = None
    http_status: int | None = None
    fingerprint: str | None = None
    closest: str | None = None
    detail: str | None = None  # why the page could not be checked (unsupported)
    archive_url: str | None = None  # archived: the snapshot that holds the quote (the archive's viewer address)
    archive_timestamp: str | None = None  # archived: the snapshot's time, YYYYMMDDhhmmss as the archive gives it
    moved_to: str | None = None  # moved: where the page now lives (after permanent redirects)
    context: str | None = None  # the page's text around the quote, as reviewed: tells a reworded passage
    context_fingerprint: str | None = None  # of `context`'s normalized words
    context_date: dt.date | None = None  # when `context` was taken
    warnings: tuple[str, ...] = ()  # beside the status, e.g. changed-since-review

    @property
    def archive_date(self) -> dt.date | None:
        """The snapshot's day, for "archived copy of DATE"."""
        stamp = self.archive_timestamp or ""
        try:
            return dt.date(int(stamp[:4]), int(stamp[4:6]), int(stamp[6:8]))
        except ValueError:
            return None

    def to_json(self) -> dict:
        raw = asdict(self)
        for key in DATES:
            raw[key] = raw[key].isoformat() if raw[key] else None
        raw["warnings"] = list(self.warnings) or None
        return {key: value for key, value in raw.items() if value is not None}

    @classmethod
    def from_json(cls, item: dict) -> LockEntry:
        fields = {k: item.get(k) for k in cls.__dataclass_fields__}
        dates = {k: dt.date.fromisoformat(item[k]) if item.get(k) else None for k in DATES}
        return cls(**{**fields, **dates, "status": Status(item["status"]), "warnings": tuple(item.get("warnings") or ())})


DATES = ("checked", "context_date")


@dataclass(frozen=True)
class CitationLock:
    path: Path
    entries: dict[tuple[str, str], LockEntry]

    def entry(self, url: str, quote: str) -> LockEntry:
        """The recorded check of this quote, or an `unchecked` entry when there is none."""
        return self.entries.get((url, quote)) or LockEntry(url, quote, UNCHECKED)

    @classmethod
    def load(cls, exam_folder: Path) -> CitationLock:
        path = exam_folder / LOCK_NAME
        if not path.is_file():
            return cls(path, {})
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
            items = (LockEntry.from_json(item) for item in raw.get("citations", []))
            return cls(path, {(e.url, e.quote): e for e in items})
        except json.JSONDecodeError as exc:
            raise LockError(path, exc.msg, exc.lineno, exc.colno) from None
        except (ValueError, KeyError, TypeError, AttributeError, OSError) as exc:
            raise LockError(path, f"{type(exc).__name__}: {exc}") from None

    def to_text(self) -> str:
        ordered = [self.entries[key].to_json() for key in sorted(self.entries)]
        document = {"about": ABOUT, "format": FORMAT, "citations": ordered}
        return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"

    def save(self) -> None:
        """Write the lock atomically: readers see the old file or the new one, never a part of one."""
        write_atomic(self.path, self.to_text().encode("utf-8"))
