"""`audit --new-only`: which of today's problems the committed lock did not already record.

A scheduled audit of a large exam always finds something (a site down for the night, a page gone that an
author has not replaced yet); failing on all of it every week teaches people to ignore the job. So it
fails only on what is new since the lock in the repository was written, while the report still lists
everything. New is:
- a citation not found (or found with a warning) whose committed entry had another status, or none, or not
  that warning (a quote found last time and dead now; a dead page now archived is a different problem);
- a review date that was still fresh on the day of the lock's newest check (it went stale since).
"""

from __future__ import annotations

from collections.abc import Mapping

from pipeline.citations.audit import AuditResult, Place
from pipeline.citations.lock import CitationLock
from pipeline.citations.status import Status


def committed(result: AuditResult, locks: Mapping[str, CitationLock]) -> dict[str, CitationLock]:
    """Each audited exam's lock as it was before this audit writes it (by exam id): the ones the run read."""
    return {exam_id: locks[exam_id] for exam_id in dict.fromkeys(ref.exam.exam.id for ref, _ in result.citations)}


def new_problems(result: AuditResult, locks: dict[str, CitationLock]) -> set[Place]:
    """The places of the quotes and review dates whose problem is new (see the module docstring)."""
    new = set()
    for ref, citation in result.citations:
        if citation.status is Status.FOUND and not citation.warnings:
            continue
        before = locks[ref.exam.exam.id].entry(ref.url, ref.quote) if ref.exam.exam.id in locks else None
        if before is None or before.status != citation.status.value or not set(citation.warnings) <= set(before.warnings):
            new.add(ref.place)
    last_audit = max((e.checked for lock in locks.values() for e in lock.entries.values() if e.checked), default=None)
    for review in result.stale_reviews:
        if review.status == "future" or last_audit is None or (last_audit - review.reviewed).days <= review.max_age_days:
            new.add(review.place)
    return new
