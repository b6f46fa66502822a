"""`audit`: every citation of the sources checked against its page, every review date against today,
and each exam's lock brought up to date.

The sources are loaded and checked offline first; an audit of sources with errors would rewrite the
lock from a partial view of them, so it refuses (the command prints the errors).
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from pipeline.citations import lockupdate
from pipeline.citations.archive import Archive, heal
from pipeline.citations.check import PageFetcher, Pair, check_all
from pipeline.citations.lock import CitationLock
from pipeline.citations.moves import RedirectLog, with_moves
from pipeline.citations.passage import Kept, compare
from pipeline.citations.status import CHANGED_SINCE_REVIEW, Status
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
    objective_id: str = ""
    key_point_id: str = ""
    index: tuple[int, int] = (0, 0)  # (key point, citation) positions in the source lists
    reviewed: dt.date | None = None  # the objective's review date (else the exam's): the day the author read the page
    node: tuple = ()  # the citation's path in its file when not a key point's (`index`): ("exam_facts", name)

    @property
    def citation_path(self) -> tuple:
        """Where the citation sits in its file, where --fix-moves edits it."""
        return self.node or ("key_points", self.index[0], "citations", self.index[1])


@dataclass(frozen=True)
class ReviewResult:
    place: Place
    reviewed: dt.date
    status: str  # fresh | stale | future
    age_days: int
    max_age_days: int = 0  # the exam's review policy


@dataclass
class AuditResult:
    citations: list[tuple[CitationRef, CitationResult]]
    reviews: list[ReviewResult]

    @property
    def problems(self) -> list[tuple[CitationRef, CitationResult]]:
        return [(ref, result) for ref, result in self.citations if result.status is not Status.FOUND]

    @property
    def warned(self) -> list[tuple[CitationRef, CitationResult]]:
        """Found quotes with a warning beside their status (changed-since-review)."""
        return [(ref, result) for ref, result in self.citations if result.status is Status.FOUND and result.warnings]

    @property
    def stale_reviews(self) -> list[ReviewResult]:
        return [review for review in self.reviews if review.status != "fresh"]

    @property
    def ok(self) -> bool:
        return not self.problems and not self.warned and not self.stale_reviews


def citation_refs(exams: list[ExamContent]) -> list[CitationRef]:
    refs = []
    for exam in exams:
        for file in exam.objective_files:
            objective = file.objective
            for i, point in file.indexed("key_points"):
                for j, citation in enumerate(point.citations):
                    place = Place.of(file, ("key_points", i, "citations", j, "quote"))
                    reviewed = objective.reviewed or exam.exam.reviewed
                    refs.append(CitationRef(exam, place, citation.url, citation.quote, objective.id, point.id, (i, j), reviewed))
        refs.extend(fact_refs(exam))
    return refs


def fact_refs(exam: ExamContent) -> list[CitationRef]:
    """The exam facts' quotes (exam.yaml's exam_facts), checked like any quote; they back no key point."""
    file = exam.exam_file
    return [CitationRef(exam, Place.of(file, ("exam_facts", key, "quote")), c.url, c.quote, "", f"exam-facts.{key}", (0, 0),
                        exam.exam.reviewed, ("exam_facts", key)) for key, c in exam.exam.exam_facts.cited()]


def review(file: SourceFile, reviewed: dt.date, today: dt.date, max_age_days: int) -> ReviewResult:
    age = (today - reviewed).days
    status = "future" if age < 0 else "stale" if age > max_age_days else "fresh"
    return ReviewResult(Place.of(file, ("reviewed",)), reviewed, status, age, max_age_days)


def reviews(exams: list[ExamContent], today: dt.date) -> list[ReviewResult]:
    found = []
    for exam in exams:
        policy = exam.exam.review_policy.max_age_days
        found.append(review(exam.exam_file, exam.exam.reviewed, today, policy))
        found.extend(review(f, f.objective.reviewed, today, policy) for f in exam.objective_files if f.objective.reviewed)
    return found


@dataclass(frozen=True)
class Healing:
    """What an audit does beyond matching live pages: follow moves, ask an archive for gone pages."""

    redirects: RedirectLog | None = None  # watching the fetcher's session: tells `moved`
    archive: Archive | None = None  # None: --no-archive


def audit(exams: list[ExamContent], locks: Mapping[str, CitationLock], fetcher: PageFetcher, today: dt.date, workers: int,
          on_page: Callable[[str], None] | None = None, per_host: int = 1, healing: Healing = Healing()) -> AuditResult:
    """Every citation checked: live page, then moves and the archive fallback, then the passage around
    each found quote against the one the lock keeps (changed since review). `locks`: each exam's citation
    lock by exam id, as the command line read it (pipeline/settings/reader.py)."""
    refs = citation_refs(exams)
    results = check_all(((ref.url, ref.quote) for ref in refs), fetcher, workers, on_page, per_host)
    if healing.redirects:
        results = {pair: with_moves(r, healing.redirects) for pair, r in results.items()}
    if healing.archive:
        results = heal(results, archive_days(refs, today), healing.archive)
    citations = [(ref, since_review(results[(ref.url, ref.quote)], ref, locks[ref.exam.exam.id], today)) for ref in refs]
    return AuditResult(citations, reviews(exams, today))


def archive_days(refs: list[CitationRef], today: dt.date) -> dict[Pair, dt.date]:
    """The day whose snapshot to ask for, per citation: its objective's latest review date, else today."""
    days: dict[Pair, dt.date] = {}
    for ref in refs:
        day = min(ref.reviewed or today, today)
        days[(ref.url, ref.quote)] = max(days.get((ref.url, ref.quote), day), day)
    return days


def since_review(result: CitationResult, ref: CitationRef, lock: CitationLock, today: dt.date) -> CitationResult:
    """A found quote's passage compared with the one the lock keeps: `changed-since-review` when it changed
    after the objective was reviewed (`pipeline.citations.passage`)."""
    if result.status not in (Status.FOUND, Status.MOVED) or result.context is None:
        return result
    entry = lock.entry(ref.url, ref.quote)
    kept = Kept(entry.context, entry.context_fingerprint, entry.context_date) if entry.context and entry.context_fingerprint and entry.context_date else None
    change = compare(kept, result.context, ref.reviewed, today)
    warnings = (CHANGED_SINCE_REVIEW,) if change.diff else ()
    return replace(result, kept=change.kept, warnings=warnings, passage_diff=change.diff)


def update_locks(exams: list[ExamContent], locks: Mapping[str, CitationLock], result: AuditResult, today: dt.date) -> tuple[list[Path], list[Path]]:
    """Write each exam's lock from the audit's results; return the paths written and those left as they
    were because nothing in them changed (so the author is not told to commit a file that did not move)."""
    written, unchanged = [], []
    for exam in exams:
        ours = [(ref, r) for ref, r in result.citations if ref.exam is exam]
        results = {(ref.url, ref.quote): r for ref, r in reversed(ours)}  # the first citation of a pair speaks for it
        lock = lockupdate.updated(locks[exam.exam.id], [(ref.url, ref.quote) for ref, _ in ours], results, today)
        if lock.path.is_file() and lock.to_text() == lock.path.read_text(encoding="utf-8"):
            unchanged.append(lock.path)
            continue
        lock.save()
        written.append(lock.path)
    return written, unchanged
