"""What the committed lock says about each quote, as diagnostics on the quote's line: offline, for
`validate` and `build`.

drifted, missing or dead at the last audit: an error (the quote must change). Never checked, checked
longer ago than the exam's review policy allows, not checkable (unsupported, or only ever unreachable),
only on an archived copy, moved, or found with its passage changed since review: a warning, an error
under --strict.
"""

from __future__ import annotations

import datetime as dt

from pipeline.citations.lock import CitationLock, LockEntry
from pipeline.citations.status import CHANGED_SINCE_REVIEW, Status
from pipeline.diagnostics import Report
from pipeline.load.content import ExamContent
from pipeline.load.schema_errors import field_label
from pipeline.text.prog import command


def _run_audit() -> str:
    return f"run `{command('audit')}` where the page can be reached"
SHOWN = 200  # characters of a closest passage shown in a message


def shorten(text: str) -> str:
    return text if len(text) <= SHOWN else text[: SHOWN - 1].rstrip() + "…"


def problem(entry: LockEntry, today: dt.date, max_age_days: int | None) -> tuple[str, str, str] | None:
    """(severity, message, code) for one quote's lock entry, or None when all is well."""
    when = entry.checked.isoformat() if entry.checked else "never"
    if entry.status == Status.FOUND and entry.checked:
        age = (today - entry.checked).days
        if max_age_days is not None and age > max_age_days:
            return "warning", f"quote last checked {when}, {age} days ago; the review policy allows {max_age_days} days: {_run_audit()}", "citation-stale"
        if CHANGED_SINCE_REVIEW in entry.warnings:
            return "warning", f"the page's text around the quote changed since the objective was reviewed (audit of {when}); re-read it, then renew `reviewed`", "citation-changed"
        return None
    if entry.status == Status.ARCHIVED:
        return "warning", f"the cited page is gone or changed, but an archived copy of {entry.archive_date} holds the quote ({entry.archive_url}); cite where the text lives now", "citation-archived"
    if entry.status == Status.MOVED:
        return "warning", f"the cited page moved to {entry.moved_to} (a permanent redirect, audit of {when}); run `{command('audit', '--fix-moves')}` or change the address", "citation-moved"
    if entry.status == Status.DRIFTED:
        return "error", f"quote not on the page at the last audit ({when}); closest passage ({entry.score or 0:.0%} alike): \"{shorten(entry.closest or '')}\"; quote the page's words or cite where they are", "citation-drifted"
    if entry.status == Status.MISSING:
        return "error", f"quote not on the page at the last audit ({when}), nor anything close to it; check the address and the quote", "citation-missing"
    if entry.status == Status.DEAD:
        return "error", f"the cited page is gone (HTTP {entry.http_status} at the last audit, {when}); cite where the text lives now", "citation-dead"
    if entry.status == Status.UNSUPPORTED:
        return "warning", f"the cited page cannot be checked ({entry.detail or 'unsupported'}); cite an HTML, text or PDF page", "citation-unsupported"
    return "warning", f"quote not checked against its page yet; {_run_audit()}", "citation-unchecked"


def check_lock(content: ExamContent, lock: CitationLock, today: dt.date, max_age_days: int | None, report: Report) -> None:
    """A diagnostic on the line of every quote whose lock entry needs an author (the lock as pipeline/settings/reader.py read it)."""
    for file in content.objective_files:
        for i, point in file.indexed("key_points"):
            for j, citation in enumerate(point.citations):
                found = problem(lock.entry(citation.url, citation.quote), today, max_age_days)
                if found:
                    severity, message, code = found
                    path = ("key_points", i, "citations", j, "quote")
                    add = report.error if severity == "error" else report.warning
                    add(file.path, file.position(path), f"{field_label(path)}: {message}", code)
    file = content.exam_file
    for key, citation in content.exam.exam_facts.cited():  # exam.yaml's quotes for the mock exam's numbers
        found = problem(lock.entry(citation.url, citation.quote), today, max_age_days)
        if found:
            severity, message, code = found
            path = ("exam_facts", key, "quote")
            (report.error if severity == "error" else report.warning)(file.path, file.position(path), f"{field_label(path)}: {message}", code)
