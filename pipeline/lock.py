"""The citation lock: `sources/<exam>/citations.lock.json`, the committed result of checking every quote.

Builds read it offline: renderers show each quote's check status and date from it, and `validate`
judges it (see the citations issue). An entry is keyed by (url, quote). A quote with no entry has
never been checked.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from pathlib import Path

from pipeline.errors import PipelineError

LOCK_NAME = "citations.lock.json"
UNCHECKED = "unchecked"


@dataclass(frozen=True)
class LockEntry:
    url: str
    quote: str
    status: str  # found | drifted | missing | dead | blocked | unreachable | unsupported | unchecked
    checked: dt.date | None = None
    match: str | None = None
    score: float | None = None
    final_url: str | None = None
    http_status: int | None = None
    fingerprint: str | None = None
    closest: str | None = None


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
            entries = {}
            for item in raw.get("citations", []):
                checked = dt.date.fromisoformat(item["checked"]) if item.get("checked") else None
                fields = {k: item.get(k) for k in LockEntry.__dataclass_fields__ if k not in ("checked",)}
                entries[(item["url"], item["quote"])] = LockEntry(**{**fields, "checked": checked})
            return cls(path, entries)
        except (ValueError, KeyError, TypeError) as exc:
            raise PipelineError(f"{path}:1:1: error: the citation lock cannot be read ({exc}); restore it from git or run `make audit`") from None
