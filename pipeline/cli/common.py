"""Options and output shared by the verbs that read the sources."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.diagnostics import Diagnostic, Report, Severity
from pipeline.position import Position
from pipeline.text.terminal import for_terminal
from pipeline.today import resolve_today

if TYPE_CHECKING:  # imported when validating: a no-op build (pipeline/publish/noop.py) never loads the checks
    from pipeline.check.validate import ExamCheck, Validation

UNCHECKED = "citation-unchecked"


def add_exam_option(parser: argparse.ArgumentParser, verb: str) -> None:
    parser.add_argument("--exam", action="append", metavar="ID", help=f"{verb} only this exam (repeat for several; default: every exam)")


def add_source_options(parser: argparse.ArgumentParser, verb: str = "check") -> None:
    parser.add_argument("--sources", type=Path, default=Path("sources"), metavar="DIR", help="the sources folder (default: sources)")
    add_exam_option(parser, verb)
    parser.add_argument("--strict", action="store_true", help="treat warnings as errors")
    parser.add_argument("--today", metavar="YYYY-MM-DD", help="the date to check review dates against (default: SOURCE_DATE_EPOCH, else the clock)")
    parser.add_argument("--verbose", action="store_true", help="list every quote not yet checked, instead of one line per exam")


def _grouped(check: ExamCheck) -> list[Diagnostic]:
    """The exam's diagnostics, its "not yet checked" warnings folded into one line that says what to run:
    on a sample written offline they are one fact, and 31 lines of it bury the message that matters."""
    unchecked = [d for d in check.report.items if d.code == UNCHECKED and d.severity is Severity.WARNING]
    if len(unchecked) < 2:
        return check.report.items
    lock = check.folder / "citations.lock.json"
    where = lock if lock.is_file() else (check.content.exam_file.path if check.content else unchecked[0].path)
    message = (f"{len(unchecked)} quotes not checked against their pages yet; run `python -m pipeline audit --exam {check.name}` "
               "where the pages can be reached (--verbose lists each)")
    rest = [d for d in check.report.items if d not in unchecked]
    return [*rest, Diagnostic(where, Position(1, 1), Severity.WARNING, message, UNCHECKED)]


def shown_diagnostics(check: ExamCheck, verbose: bool) -> list[Diagnostic]:
    """The exam's diagnostics as printed: each one with --verbose, else the unchecked quotes as one line."""
    return check.report.items if verbose else _grouped(check)


def print_diagnostics(result: Validation, verbose: bool) -> None:
    print_sorted([d for check in result.checks for d in shown_diagnostics(check, verbose)])


def print_sorted(diagnostics: list[Diagnostic]) -> None:
    for diagnostic in Report(list(diagnostics)).sorted():
        print(diagnostic.format())


def table_rows(result: Validation) -> list[tuple[str, int, int]]:
    """Per exam: its name, errors and warnings."""
    return [(c.name, len(c.report.errors), len(c.report.warnings)) for c in result.checks]


def print_table(result: Validation | list[tuple[str, int, int]], outputs: dict[str, str] | None = None) -> None:
    """The closing table on stderr: per exam its errors, warnings and (for `build`) what became of its outputs."""
    rows = [("exam", "errors", "warnings", *(("outputs",) if outputs is not None else ()))]
    for name, errors, warnings in result if isinstance(result, list) else table_rows(result):
        rows.append((name, str(errors), str(warnings), *((outputs.get(name, "not built"),) if outputs is not None else ())))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        cells = [cell.ljust(w) if i in (0, 3) else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths, strict=True))]
        print(for_terminal("  ".join(cells).rstrip()), file=sys.stderr)


def validate_and_report(args: argparse.Namespace, *, table: bool = True) -> Validation:
    """Run every offline check and print every problem, sorted, then a table per exam and a one-line summary on stderr."""
    from pipeline.check.validate import validate

    result = validate(args.sources, resolve_today(args.today), strict=args.strict, exams=getattr(args, "exam", None))
    print_diagnostics(result, getattr(args, "verbose", False))
    if table:
        print_table(result)
    print_summary(result)
    return result


def refused(checked: Validation, verb: str, why: str = "") -> bool:
    """For a verb that rewrites a lock from the sources: print every error and refuse (True) when there is one."""
    if checked.ok:
        return False
    for diagnostic in checked.report.sorted():
        print(diagnostic.format())
    print(f"{verb}: not run: fix the errors above first{why}", file=sys.stderr)
    return True


def summary(result: Validation) -> tuple[int, int, int, int]:
    """Exams, objectives, errors and warnings: what the summary line counts."""
    objectives = sum(len(e.objective_files) for e in result.exams)
    return len(result.exams), objectives, len(result.report.errors), len(result.report.warnings)


def print_summary(result: Validation | tuple[int, int, int, int]) -> None:
    exams, objectives, errors, warnings = result if isinstance(result, tuple) else summary(result)
    print(f"validate: {exams} exam(s), {objectives} objective(s): {errors} error(s), {warnings} warning(s)", file=sys.stderr)


def relative(paths: Sequence[Path]) -> list[str]:
    return [os.path.relpath(p) for p in paths]
