"""`audit`: every citation of the sources checked against its page, every review date against today,
and each exam's lock brought up to date.

The sources are loaded and checked offline first; an audit of sources with errors would rewrite the
lock from a partial view of them, so it refuses (the command prints the errors).
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pipeline.citations import lockupdate
from pipeline.citations.check import PageFetcher, check_all
from pipeline.citations.lock import CitationLock
from pipeline.citations.status import Status
from pipeline.citations.verdict import CitationResult
from pipeline.load.content import ExamContent, SourceFile
from pipeline.load.yamlsource import PathKey, Position


@dataclass(frozen=True)
class Place:
    """Where an item stands in the sources."""

    path: Path
    position: Position

    @property
    def file(self) -> str:
        return os.path.relpath(self.path)

    @classmethod
    def of(cls, file: SourceFile, path: PathKey) -> Place:
        return cls(file.path, file.position(path))


@dataclass(frozen=True)
class CitationRef:
    exam: ExamContent
    place: Place  # the quote's node
    url: str
    quote: str


@dataclass(frozen=True)
class ReviewResult:
    place: Place
    reviewed: dt.date
    status: str  # fresh | stale | future
    age_days: int


@dataclass
class AuditResult:
    citations: list[tuple[CitationRef, CitationResult]]
    reviews: list[ReviewResult]

    @property
    def problems(self) -> list[tuple[CitationRef, CitationResult]]:
        return [(ref, result) for ref, result in self.citations if result.status is not Status.FOUND]

    @property
    def stale_reviews(self) -> list[ReviewResult]:
        return [review for review in self.reviews if review.status != "fresh"]

    @property
    def ok(self) -> bool:
        return not self.problems and not self.stale_reviews


def citation_refs(exams: list[ExamContent]) -> list[CitationRef]:
    refs = []
    for exam in exams:
        for file in exam.objective_files:
            for i, point in file.indexed("key_points"):
                for j, citation in enumerate(point.citations):
                    place = Place.of(file, ("key_points", i, "citations", j, "quote"))
                    refs.append(CitationRef(exam, place, citation.url, citation.quote))
    return refs


def review(file: SourceFile, reviewed: dt.date, today: dt.date, max_age_days: int) -> ReviewResult:
    age = (today - reviewed).days
    status = "future" if age < 0 else "stale" if age > max_age_days else "fresh"
    return ReviewResult(Place.of(file, ("reviewed",)), reviewed, status, age)


def reviews(exams: list[ExamContent], today: dt.date) -> list[ReviewResult]:
    found = []
    for exam in exams:
        policy = exam.exam.review_policy.max_age_days
        found.append(review(exam.exam_file, exam.exam.reviewed, today, policy))
        found.extend(review(f, f.objective.reviewed, today, policy) for f in exam.objective_files if f.objective.reviewed)
    return found


def audit(exams: list[ExamContent], fetcher: PageFetcher, today: dt.date, workers: int,
          on_page: Callable[[str], None] | None = None, per_host: int = 1) -> AuditResult:
    refs = citation_refs(exams)
    results = check_all(((ref.url, ref.quote) for ref in refs), fetcher, workers, on_page, per_host)
    return AuditResult([(ref, results[(ref.url, ref.quote)]) for ref in refs], reviews(exams, today))


def update_locks(exams: list[ExamContent], result: AuditResult, today: dt.date) -> tuple[list[Path], list[Path]]:
    """Write each exam's lock from the audit's results; return the paths written and those left as they
    were because nothing in them changed (so the author is not told to commit a file that did not move)."""
    results = {(ref.url, ref.quote): r for ref, r in result.citations}
    written, unchanged = [], []
    for exam in exams:
        pairs = [(ref.url, ref.quote) for ref, _ in result.citations if ref.exam is exam]
        old = CitationLock.load(exam.folder)
        lock = lockupdate.updated(old, pairs, results, today)
        if lock.path.is_file() and lock.to_text() == lock.path.read_text(encoding="utf-8"):
            unchanged.append(lock.path)
            continue
        lock.save()
        written.append(lock.path)
    return written, unchanged
