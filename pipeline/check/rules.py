"""Offline content checks: the rules the schema alone cannot express.

Each check reads validated models, points at the exact YAML node it objects to, and adds to a
`Report`; none prints, raises or stops the others. Per-objective checks run on every valid objective
file; exam-wide checks (unique ids, sections, weights) run when exam.yaml itself is valid.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass

from pipeline.check import numbers
from pipeline.diagnostics import Report
from pipeline.load.content import ExamContent, ObjectiveFile, SourceFile
from pipeline.load.schema_errors import field_label
from pipeline.load.yamlsource import PathKey
from pipeline.questions import type_of
from pipeline.text import cloze
from pipeline.text.messages import did_you_mean
from pipeline.variants.template import template_problems
from schema.models import Question


@dataclass(frozen=True)
class CheckContext:
    today: dt.date
    max_review_age_days: int | None  # None when exam.yaml is invalid: the age check is skipped


def _err(report: Report, file: SourceFile, path: PathKey, message: str, code: str, *, at_key: bool = False) -> None:
    """An error on the node at `path` (or on its key, for a message about a whole list)."""
    position = file.doc.key_position(path) if at_key else file.position(path)
    report.error(file.path, position, f"{field_label(path)}: {message}", code)


def _warn(report: Report, file: SourceFile, path: PathKey, message: str, code: str) -> None:
    report.warning(file.path, file.position(path), f"{field_label(path)}: {message}", code)


def check_review_date(file: SourceFile, path: PathKey, reviewed: dt.date, ctx: CheckContext, report: Report) -> None:
    """Not in the future; older than the policy allows is a warning (an error under --strict)."""
    if reviewed > ctx.today:
        _err(report, file, path, f"{reviewed} is after today ({ctx.today}); expected the date the content was last checked", "review-future")
        return
    age = (ctx.today - reviewed).days
    if ctx.max_review_age_days is not None and age > ctx.max_review_age_days:
        _warn(report, file, path, f"last reviewed {reviewed}, {age} days ago; the review policy allows {ctx.max_review_age_days} days: check the content again and update the date", "review-stale")


def check_question(file: SourceFile, path: PathKey, q: Question, report: Report) -> None:
    """The rules of the question's type (pipeline/questions/), each error on the node it is about. A varied
    question's template is not a question yet: its type's rules run on each variant (pipeline/variants/)."""
    templated = template_problems(q)
    for problem in templated:
        _err(report, file, path + problem.at, problem.message, problem.code)
    if q.variants is not None or templated:
        return
    for problem in type_of(q.type).check(q):
        _err(report, file, path + problem.at, problem.message, problem.code)


def check_objective(file: ObjectiveFile, ctx: CheckContext, report: Report) -> None:
    """Every rule that one objective file can be checked for on its own."""
    if file.objective.reviewed is not None:
        check_review_date(file, ("reviewed",), file.objective.reviewed, ctx, report)
    for i, point in file.indexed("key_points"):
        if not point.citations:
            _warn(report, file, ("key_points", i), f"key point '{point.id}' has no citation; add a quote from the page it comes from", "uncited-key-point")
        for problem in cloze.problems(point.text):
            _err(report, file, ("key_points", i, "text"), problem, "cloze")
    check_numbers_backed(file, report)
    for i, question in file.indexed("questions"):
        check_question(file, ("questions", i), question, report)


def check_numbers_backed(file: ObjectiveFile, report: Report) -> None:
    """`number-unbacked` at a key point's text, and at its essential (the guide's summary of it), for each
    figure that none of its quotes, none of the objective's example outputs and none of its own formulas
    states (pipeline/check/numbers.py)."""
    outputs = [e.output for e in file.objective.examples or [] if getattr(e, "output", None)]
    for i, point in file.indexed("key_points"):
        backing = [c.quote for c in point.citations or []] + outputs
        # the essential repeats the point: a figure of the point's text is the text's to back (its own warning)
        for name, text, also in (("text", point.text, []), ("essential", point.essential, [point.text])):
            figures = numbers.unbacked(text, backing + also) if text else []
            if figures:
                shown = ", ".join(map(repr, figures))
                _warn(report, file, ("key_points", i, name), f"{shown}: {'a number' if len(figures) == 1 else 'numbers'} that no quote of this key point "
                      "and no output of this objective's worked examples states; quote the page that gives it, show it in an example's output, "
                      "or compute it in a formula ($...$)", "number-unbacked")


def _normalized(text: str) -> str:
    return re.sub(r"\W+", " ", text).strip().casefold()


def _check_unique(items: Iterable[tuple[SourceFile, PathKey, str]], what: str, report: Report, *, warn: bool = False, code: str = "duplicate-id") -> None:
    """The second and later uses of one key are reported, each pointing at the first."""
    first: dict[str, tuple[SourceFile, PathKey]] = {}
    for file, path, key in items:
        if key in first:
            other_file, other_path = first[key]
            message = f"{what} is already used at {os.path.relpath(other_file.path)}:{other_file.line_of(other_path)}"
            (_warn if warn else _err)(report, file, path, message, code)
        else:
            first[key] = (file, path)


def check_unique_ids(objective_files: Iterable[ObjectiveFile], report: Report) -> None:
    files = sorted(objective_files, key=lambda f: str(f.path))  # "second" means later in reading order
    _check_unique(((f, ("id",), f.objective.id) for f in files if f.objective.id), "objective id", report)
    _check_unique(((f, ("key_points", i, "id"), kp.id) for f in files for i, kp in f.indexed("key_points")), "key point id", report)
    _check_unique(((f, ("questions", i, "id"), q.id) for f in files for i, q in f.indexed("questions")), "question id", report)
    _check_case_apart(files, report)
    _check_unique(((f, ("terms", i, "term"), t.term.casefold()) for f in files for i, t in f.indexed("terms")), "term", report)
    _check_unique(((f, ("examples", i, "id"), e.id) for f in files for i, e in f.indexed("examples")), "example id", report)
    _check_unique(((f, ("questions", i, "stem"), _normalized(q.stem)) for f in files for i, q in f.indexed("questions")),
                  "the same stem", report, warn=True, code="duplicate-stem")


def _check_case_apart(files: list, report: Report) -> None:
    """Question ids name files in the QTI export; on a file system that folds case (Windows, macOS) `Q1`
    and `q1` would be one file, so two ids may not differ only in case."""
    first: dict[str, tuple[SourceFile, PathKey, str]] = {}
    for f in files:
        for i, q in f.indexed("questions"):
            seen = first.setdefault(q.id.casefold(), (f, ("questions", i, "id"), q.id))
            if seen[2] != q.id:
                where = f"{os.path.relpath(seen[0].path)}:{seen[0].line_of(seen[1])}"
                _err(report, f, ("questions", i, "id"), f"question id '{q.id}' differs from '{seen[2]}' at {where} only in case; "
                     "give it another id (exports name files by id, and some file systems ignore case)", "duplicate-id")


def check_sections(content: ExamContent, report: Report) -> None:
    exam_file, sections = content.exam_file, content.exam.sections
    _check_unique(((exam_file, ("sections", i, "number"), str(s.number)) for i, s in enumerate(sections)), "section number", report)
    total = sum(s.weight for s in sections)
    if total > 100:
        _err(report, exam_file, ("sections",), f"weights add up to {total}; expected at most 100 (percent of the exam)", "section-weights", at_key=True)
    declared = {s.number for s in sections}
    for file in (f for f in content.objective_files if f.objective.id):
        number = int(file.objective.id.split(".")[0])
        if number not in declared:
            _err(report, file, ("id",), f"objective {file.objective.id} belongs to section {number}, which exam.yaml does not declare (declared: {', '.join(map(str, sorted(declared)))})", "section-unknown")


def check_question_refs(objective_files: Iterable[ObjectiveFile], report: Report) -> None:
    objective_files = list(objective_files)
    known = {kp.id for f in objective_files for _, kp in f.indexed("key_points")}
    known |= {i for f in objective_files for i in f.unvalidated_ids}  # reported already; no second error
    for file in objective_files:
        for i, question in file.indexed("questions"):
            for j, ref in enumerate(question.key_points):
                if ref not in known:
                    _err(report, file, ("questions", i, "key_points", j), f"no key point has the id '{ref}'{did_you_mean(ref, known)}", "question-ref")


def check_objectives_together(objective_files: Iterable[ObjectiveFile], report: Report) -> None:
    """The rules across objective files that need nothing of exam.yaml: unique ids, question references."""
    objective_files = list(objective_files)
    check_unique_ids(objective_files, report)
    check_question_refs(objective_files, report)


def check_exam(content: ExamContent, ctx: CheckContext, report: Report) -> None:
    """The exam-wide rules: run once exam.yaml and the objectives have loaded."""
    check_review_date(content.exam_file, ("reviewed",), content.exam.reviewed, ctx, report)
    check_sections(content, report)
    check_objectives_together(content.objective_files, report)
