"""The citation lock: `sources/<exam>/citations.lock.json`, the committed result of checking every quote.

`audit` writes it; builds read it offline: renderers show each quote's check status and date from it, and
`validate` turns it into diagnostics (`pipeline.citations.lockcheck`). An entry is keyed by (url, quote).
A quote with no entry, or an `unchecked` one, has never been checked.

The file is written in a fixed order (by url, then quote), keys sorted, and atomically (a temporary file
in the same folder, then `os.replace`): an audit killed at any point leaves the old lock or the new one.

It is read back as hostile (anyone can edit a committed file): bounded in size and nesting
(`pipeline.publish.readback`), and every field checked for its type and form, addresses by the schema's
rule for an address (a lock is printed by every `validate`, so an address holding an ESC sequence, or an
archive time that is no time, is refused at its line and column rather than shown).
"""

from __future__ import annotations

import datetime as dt
import json
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from pipeline.errors import UsageError
from pipeline.publish import readback
from pipeline.publish.atomic import write_atomic
from pipeline.text.prog import COMMAND, command
from pipeline.vocabulary.fields import PARAGRAPH, _absolute_http_url
from schema.citation_status import Status

LOCK_NAME = "citations.lock.json"
UNCHECKED = Status.UNCHECKED
FORMAT = 1
ABOUT = f"Written by `{COMMAND} audit`: one entry per cited (url, quote). Commit it; do not edit it by hand."


class LockError(UsageError):
    """The lock file exists but cannot be read: a machine-written file is broken, not the content (exit 2)."""

    def __init__(self, path: Path, reason: str, line: int = 1, col: int = 1) -> None:
        super().__init__(f"{path}:{line}:{col}: error: the citation lock cannot be read ({reason}); restore it from git or run `{command('audit')}`")
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
        when = capture_time(self.archive_timestamp or "")
        return when.date() if when else None

    def to_json(self) -> dict:
        raw = {name: getattr(self, name) for name in self.__dataclass_fields__}  # every field is a value: no deep copy
        for key in DATES:
            raw[key] = raw[key].isoformat() if raw[key] else None
        raw["warnings"] = list(self.warnings) or None
        return {key: value for key, value in raw.items() if value is not None}

    @classmethod
    def from_json(cls, item: dict) -> LockEntry:
        """The entry; `FieldError` naming the first field that is not what the audit writes."""
        if not isinstance(item, dict):
            raise FieldError("", "expected an object for each citation")
        for key, value in item.items():
            if key not in cls.__dataclass_fields__:
                raise FieldError(key, "not a field of a lock entry")
            _check_field(key, value)
        for key in ("url", "quote", "status"):
            if item.get(key) is None:  # null passes the type checks of the optional fields
                raise FieldError(key if key in item else "", "an entry needs url, quote and status")
        fields = {k: item.get(k) for k in cls.__dataclass_fields__}
        dates = {k: dt.date.fromisoformat(item[k]) if item.get(k) else None for k in DATES}
        return cls(**{**fields, **dates, "status": Status(item["status"]), "warnings": tuple(item.get("warnings") or ())})


DATES = ("checked", "context_date")
URLS = ("final_url", "archive_url", "moved_to")  # addresses from outside, shown and linked: the schema's rule
# `url` is a key, matched with the address in the source (which the schema checks): text without controls
TEXTS = {"quote": 600, "match": 20, "closest": 20_000, "detail": 2_000, "fingerprint": 100, "context": 20_000, "context_fingerprint": 100}
_CAPTURE = re.compile(r"\d{14}")


class FieldError(ValueError):
    def __init__(self, key: str, reason: str) -> None:
        super().__init__(f"{key}: {reason}" if key else reason)
        self.key = key


def capture_time(stamp: str) -> dt.datetime | None:
    """An archive's YYYYMMDDhhmmss as a time, None when it is not one."""
    try:
        return dt.datetime.strptime(stamp, "%Y%m%d%H%M%S").replace(tzinfo=dt.UTC) if _CAPTURE.fullmatch(stamp) else None
    except ValueError:
        return None


def _check_field(key: str, value: object) -> None:
    """`FieldError` when a field's value is not of the form the audit writes."""
    if value is None:
        return
    if key in URLS:
        _check_url(key, value)
    elif key == "url":
        if not isinstance(value, str) or len(value) > PARAGRAPH or _shows_badly(value):
            raise FieldError(key, f"expected an address of at most {PARAGRAPH:,} characters, without control characters")
    elif key in TEXTS:
        if not isinstance(value, str) or len(value) > TEXTS[key]:
            raise FieldError(key, f"expected text of at most {TEXTS[key]:,} characters")
    elif key == "status" and (not isinstance(value, str) or value not in {s.value for s in Status}):  # a list is unhashable
        raise FieldError(key, f"not a citation status (expected one of {', '.join(s.value for s in Status)})")
    elif key in DATES:
        _check_date(key, value)
    elif key == "archive_timestamp" and not (isinstance(value, str) and capture_time(value)):
        raise FieldError(key, "expected a real time as YYYYMMDDhhmmss")
    elif key == "score" and (isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1):
        raise FieldError(key, "expected a number from 0 to 1")
    elif key == "http_status" and (isinstance(value, bool) or not isinstance(value, int) or not 100 <= value <= 599):
        raise FieldError(key, "expected an HTTP status from 100 to 599")
    elif key == "warnings" and not (isinstance(value, list) and all(isinstance(w, str) and len(w) <= 100 for w in value)):
        raise FieldError(key, "expected a list of warning names")


def _check_url(key: str, value: object) -> None:
    if not isinstance(value, str) or len(value) > PARAGRAPH:
        raise FieldError(key, f"expected an address of at most {PARAGRAPH:,} characters")
    if _shows_badly(value):
        raise FieldError(key, "the address holds control or formatting characters")
    try:
        _absolute_http_url(value)
    except ValueError as exc:
        raise FieldError(key, f"the address {exc}") from None


def _shows_badly(text: str) -> bool:
    return any(unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") for ch in text)


def _check_date(key: str, value: object) -> None:
    if isinstance(value, str):
        try:
            dt.date.fromisoformat(value)
            return
        except ValueError:
            pass
    raise FieldError(key, "expected a date, YYYY-MM-DD")


@dataclass(frozen=True)
class CitationLock:
    path: Path
    entries: dict[tuple[str, str], LockEntry]

    def entry(self, url: str, quote: str) -> LockEntry:
        """The recorded check of this quote, or an `unchecked` entry when there is none."""
        return self.entries.get((url, quote)) or LockEntry(url, quote, UNCHECKED)

    @classmethod
    def load(cls, exam_folder: Path) -> CitationLock:
        # Called once per run and exam, by pipeline/settings/reader.py, which hands the lock down: no cache here.
        path = exam_folder / LOCK_NAME
        if not path.exists() and not path.is_symlink():
            return cls(path, {})
        try:
            text = readback.read_text(path)
            raw = readback.parse(text)
        except readback.Unreadable as exc:
            raise LockError(path, exc.reason, exc.line, exc.col) from None
        except OSError as exc:
            raise LockError(path, exc.strerror or type(exc).__name__) from None
        if not isinstance(raw, dict) or not isinstance(raw.get("citations", []), list):
            raise LockError(path, "expected an object with a list of citations")
        if raw.get("format", FORMAT) != FORMAT:
            raise LockError(path, f"format {raw.get('format')!r}, expected {FORMAT}; written by another version of the pipeline?",
                            *readback.position(text, ("format",)))
        entries = {}
        for i, item in enumerate(raw.get("citations", [])):
            try:
                entry = LockEntry.from_json(item)
            except FieldError as exc:
                where = ("citations", i, exc.key) if exc.key else ("citations", i)
                raise LockError(path, str(exc), *readback.position(text, where)) from None
            entries[(entry.url, entry.quote)] = entry
        return cls(path, entries)

    def to_text(self) -> str:
        ordered = [self.entries[key].to_json() for key in sorted(self.entries)]
        document = {"about": ABOUT, "format": FORMAT, "citations": ordered}
        return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"

    def save(self) -> None:
        """Write the lock atomically: readers see the old file or the new one, never a part of one."""
        write_atomic(self.path, self.to_text().encode("utf-8"))
