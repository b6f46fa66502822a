"""Load every exam under a sources folder and run every offline check: the stage before any rendering.

Each exam is checked on its own, with its own report, so that `build` can write the outputs of the exams
that have no error while another exam has some. Two exams with one id would write over each other's
outputs: both are errors, each naming the other's file.
"""

from __future__ import annotations

import datetime as dt
import difflib
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.check import answer_in_context, essentials, item_lint, severity
from pipeline.check import rules as checks
from pipeline.check.crossrefs import check_cross_refs, resolve
from pipeline.check.formula_check import check_formulas
from pipeline.check.languages import check_languages
from pipeline.check.link_check import check_links
from pipeline.check.placeholders import check_placeholders
from pipeline.citations.lockcheck import check_lock
from pipeline.diagnostics import Report
from pipeline.errors import UsageError
from pipeline.examples.lockcheck import check_examples_lock, check_requirements_file
from pipeline.load.content import ExamContent, ExamFile, ObjectiveFile
from pipeline.load.loader import exam_folders, load_exam_file, load_objectives
from pipeline.variants.lockcheck import check_variants_lock

if TYPE_CHECKING:  # the value's shape only: the reader (pipeline/settings/reader.py) sits above this stage
    from pipeline.inputs.value import ExamInputs

Judge = Callable[["ExamInputs", Report], None]
Reader = Callable[[ExamContent], "ExamInputs"]  # an exam's inputs: the command line's reader (pipeline/settings/reader.py)


@dataclass
class ExamCheck:
    """One exam folder: its id (the folder's name when its exam file is invalid), its content when it
    loaded, and every problem found in it."""

    folder: Path
    name: str
    content: ExamContent | None = None
    report: Report = field(default_factory=Report)
    objective_files: int = 0  # objective files read (valid or not)
    unchecked: int = 0  # items the rule checks could not look at, for their schema errors
    not_checked: list[str] = field(default_factory=list)  # sentences: what could not be checked, and why

    @property
    def ok(self) -> bool:
        return self.content is not None and not self.report.errors


@dataclass
class Validation:
    """Every exam checked, and every problem found in any of them."""

    checks: list[ExamCheck]
    report: Report
    names: list[str] = field(default_factory=list)  # every exam of the sources, chosen or not

    @property
    def exams(self) -> list[ExamContent]:
        """The exams that loaded (with or without rule errors)."""
        return [c.content for c in self.checks if c.content is not None]

    @property
    def buildable(self) -> list[ExamContent]:
        """The exams without any error: those `build` writes."""
        return [c.content for c in self.checks if c.ok]

    @property
    def ok(self) -> bool:
        return not self.report.errors

    @property
    def exam_count(self) -> int:
        return len(self.checks)

    @property
    def objective_count(self) -> int:
        return sum(c.objective_files for c in self.checks)

    @property
    def unchecked(self) -> int:
        return sum(c.unchecked for c in self.checks)


def _exam_files(sources: Path) -> list[tuple[ExamCheck, ExamFile | None]]:
    found = []
    for folder in exam_folders(sources):
        check = ExamCheck(folder, folder.name)
        exam_file = load_exam_file(folder, check.report)
        if exam_file is not None:
            check.name = exam_file.exam.id
        found.append((check, exam_file))
    return found


def _check_duplicate_ids(found: list[tuple[ExamCheck, ExamFile | None]]) -> None:
    """Two exams with one id: an error in each, naming the other's file."""
    files = [(check, f) for check, f in found if f is not None]
    for check, exam_file in files:
        for other, other_file in files:
            if other is not check and other_file.exam.id == exam_file.exam.id:
                where = f"{os.path.relpath(other_file.path)}:{other_file.line_of(('id',))}"
                check.report.error(exam_file.path, exam_file.position(("id",)),
                                   f"id: exam id '{exam_file.exam.id}' is also the id of {where}; give each exam its own id "
                                   "(outputs go to build/<id>/)", "exam-duplicate-id")


def _select(found: list[tuple[ExamCheck, ExamFile | None]], wanted: Sequence[str] | None, sources: Path):
    if not wanted:
        return found
    names = sorted({check.name for check, _ in found})
    for name in wanted:
        if name not in names:
            guess = difflib.get_close_matches(name, names, n=1)
            hint = f"; did you mean '{guess[0]}'?" if guess else ""
            raise UsageError(f"error: no exam '{name}' in {sources}{hint} (exams: {', '.join(names)})")
    return [(check, f) for check, f in found if check.name in wanted]


def _left_out(file: ObjectiveFile) -> int:
    """How many items of a partial objective file were beyond repair (not handed to the checks)."""
    if not file.partial or not isinstance(file.doc.data, dict):
        return 0
    return sum(max(len(file.doc.data.get(name) or []) - len(file.item_indexes.get(name, ())), 0)
               for name in ("key_points", "terms", "examples", "questions") if isinstance(file.doc.data.get(name), list))


class _Targets:
    """The exams cross-references may point at: every exam of the sources, loaded on first use when it
    is not among those being checked (its own problems are not reported then)."""

    def __init__(self, found: list[tuple[ExamCheck, ExamFile | None]]) -> None:
        self._files = {check.name: (check, exam_file) for check, exam_file in found}
        self._loaded: dict[str, ExamContent | None] = {}

    def __contains__(self, exam_id: str) -> bool:
        return exam_id in self._files

    def ids(self) -> list[str]:
        return sorted(self._files)

    def content(self, exam_id: str) -> ExamContent | None:
        check, exam_file = self._files[exam_id]
        if check.content is not None:
            return check.content
        if exam_id not in self._loaded:
            self._loaded[exam_id] = load_objectives(check.folder, exam_file, Report()).content()
        return self._loaded[exam_id]


def _check_exam(check: ExamCheck, exam_file: ExamFile | None, today: dt.date, inputs: Reader | None, judges: Sequence[Judge] = ()) -> None:
    loaded = load_objectives(check.folder, exam_file, check.report)
    check.objective_files = len(loaded.objective_files)
    for source in [loaded.exam_file, *loaded.objective_files]:
        check_links(source.doc if source else None, check.report)
        check_formulas(source.doc if source else None, check.report)
        check_placeholders(source, check.report)
    content = loaded.content()
    policy = content.exam.review_policy.max_age_days if content else None
    ctx = checks.CheckContext(today=today, max_review_age_days=policy)
    for file in loaded.objective_files:
        checks.check_objective(file, ctx, check.report)
        item_lint.lint_objective(file, check.report)
        check_languages(file, check.report)
    check.unchecked = sum(_left_out(file) for file in loaded.objective_files)
    if content:
        checks.check_exam(content, ctx, check.report)
        answer_in_context.lint(content, check.report)
        essentials.check(content, check.report)
        check_requirements_file(content, check.report)
        given = inputs(content) if inputs is not None else None
        if given is not None:
            check_lock(content, given.citations, today, policy, check.report)
            check_examples_lock(content, given.examples, check.report)
            check_variants_lock(content, given.variants, check.report)
        if given is not None and not check.report.errors:  # judges read a derived view of the exam, which needs sound sources
            for judge in judges:
                judge(given, check.report)
        check.content = content
    else:
        checks.check_objectives_together(loaded.objective_files, check.report)
        if exam_file is None and check.report.errors:
            check.not_checked.append("exam.yaml cannot be read as an exam: sections, weights, review dates against its policy, "
                                     "the citation lock and cross-references were not checked")


def validate(sources: Path, today: dt.date, *, strict: bool | Callable[[str], bool] = False, inputs: Reader | None = None,
             exams: Sequence[str] | None = None, judges: Sequence[Judge] = ()) -> Validation:
    """Check the exams of `sources` (only those whose id is in `exams`, when given).

    `strict` may say per exam id whether warnings are errors (pipeline.toml's per-exam `strict`).
    `inputs` gives each exam's inputs (its locks: pipeline/settings/reader.py, which the command line hands in):
    what the citation, examples and variants locks say is checked only then; without it (`audit`, `examples`
    and `variants`, which are about to rewrite them) it is left out. `judges` are checks from stages above this
    one, run with the inputs on each exam without errors before its severities apply (the CLI hands in
    `pipeline.stats.lockcheck.check_item_stats`, which judges item-stats.json against the exam's view)."""
    found = _exam_files(sources)
    _check_duplicate_ids(found)
    chosen = _select(found, exams, sources)
    for check, exam_file in chosen:
        _check_exam(check, exam_file, today, inputs, judges)
    targets = _Targets(found)
    report = Report()
    for check, _ in chosen:
        if check.content is not None:
            check_cross_refs(check.content, targets, check.report)
            check.content = replace(check.content, cross_refs=resolve(check.content, targets))
            # the exam's own severity settings (exam.yaml `checks:`), applied once all its checks ran
            check.report.items = severity.apply(check.report.items, severity.configured(check.content.exam_file, check.report))
        if strict(check.name) if callable(strict) else strict:
            check.report.promote_warnings()
        report.extend(check.report)
    return Validation([check for check, _ in chosen], report, targets.ids())
