"""Load every exam under a sources folder and run every offline check: the stage before any rendering."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from pipeline.check import item_lint, severity
from pipeline.check import rules as checks
from pipeline.check.diagnostics import Report
from pipeline.check.links import check_links
from pipeline.citations.lockcheck import check_lock
from pipeline.load.content import ExamContent
from pipeline.load.loader import exam_folders, load_exam


@dataclass
class Validation:
    """All exams that loaded, and every problem found in any of them."""

    exams: list[ExamContent]
    report: Report

    @property
    def ok(self) -> bool:
        return not self.report.errors


def validate(sources: Path, today: dt.date, *, strict: bool = False, lock: bool = True) -> Validation:
    """`lock=False` leaves out what the citation lock says (for `audit`, which is about to rewrite it)."""
    report = Report()
    exams = []
    for folder in exam_folders(sources):
        exam_report = Report()
        content = _check_exam_folder(folder, today, lock, exam_report)
        report.extend(exam_report)
        if content:
            exams.append(content)
    if strict:
        report.promote_warnings()
    return Validation(exams, report)


def _check_exam_folder(folder: Path, today: dt.date, lock: bool, report: Report) -> ExamContent | None:
    """Load and check one exam, with its own severity settings applied to its diagnostics."""
    loaded = load_exam(folder, report)
    for source in [loaded.exam_file, *loaded.objective_files]:
        check_links(source.doc if source else None, report)
    content = loaded.content()
    policy = content.exam.review_policy.max_age_days if content else None
    ctx = checks.CheckContext(today=today, max_review_age_days=policy)
    for file in loaded.objective_files:
        checks.check_objective(file, ctx, report)
        item_lint.lint_objective(file, report)
    if content:
        checks.check_exam(content, ctx, report)
        if lock:
            check_lock(content, today, policy, report)
        report.items = severity.apply(report.items, severity.configured(content.exam_file, report))
    return content
