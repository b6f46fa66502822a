"""Options and output shared by the verbs that read the sources."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.console import say
from pipeline.diagnostics import Diagnostic, Position, Report, Severity
from pipeline.settings import project as config
from pipeline.text.prog import command
from pipeline.text.terminal import for_terminal

if TYPE_CHECKING:  # imported where used: a no-op build must not pay for loading the checks (pipeline/publish/noop.py)
    from pipeline.check.validate import ExamCheck, Validation
    from pipeline.settings.reader import Reader

UNCHECKED = "citation-unchecked"


def add_exam_option(parser: argparse.ArgumentParser, verb: str) -> None:
    parser.add_argument("--exam", action="append", metavar="ID", help=f"{verb} only this exam (repeat for several; default: every exam)")


def add_source_options(parser: argparse.ArgumentParser, verb: str = "check") -> None:
    parser.add_argument("--sources", type=Path, default=Path("sources"), metavar="DIR", help="the sources folder (default: sources)")
    add_exam_option(parser, verb)
    parser.add_argument("--strict", action="store_true", default=None, help="treat warnings as errors (default: `strict` in pipeline.toml, else off)")
    parser.add_argument("--today", metavar="YYYY-MM-DD", help="the date to check review dates against (default: SOURCE_DATE_EPOCH, else the clock)")


def _grouped(check: ExamCheck) -> list[Diagnostic]:
    """The exam's diagnostics, its "not yet checked" warnings folded into one line that says what to run:
    on a sample written offline they are one fact, and 31 lines of it bury the message that matters."""
    unchecked = [d for d in check.report.items if d.code == UNCHECKED and d.severity is Severity.WARNING]
    if len(unchecked) < 2:
        return check.report.items
    lock = check.folder / "citations.lock.json"
    where = lock if lock.is_file() else (check.content.exam_file.path if check.content else unchecked[0].path)
    message = (f"{len(unchecked)} quotes not checked against their pages yet; run `{command('audit', '--exam', check.name)}` "
               "where the pages can be reached (-v lists each)")
    rest = [d for d in check.report.items if d not in unchecked]
    return [*rest, Diagnostic(where, Position(1, 1), Severity.WARNING, message, UNCHECKED)]


def shown_diagnostics(check: ExamCheck, verbose: bool) -> list[Diagnostic]:
    """The exam's diagnostics as printed: each one with -v, else the unchecked quotes as one line."""
    return check.report.items if verbose else _grouped(check)


def print_diagnostics(result: Validation, verbose: bool) -> None:
    print_sorted([d for check in result.checks for d in shown_diagnostics(check, verbose)])


def print_sorted(diagnostics: list[Diagnostic]) -> None:
    for diagnostic in Report(list(diagnostics)).sorted():
        say.problem(diagnostic.format())


def print_generated(result: Validation) -> None:
    """What the generator made of each exam (drills) and what it dropped, with the reason: so an author
    can see every generated item and suppress one (`generated: {suppress: [id]}` in exam.yaml). On stderr,
    beside the table: stdout holds only the `path:line:col:` problems editors and CI annotators read."""
    from pipeline.practice.generate import DROP_REASONS, generate  # here: a no-op build never loads the generator
    from pipeline.practice.term_cards import one_way_terms

    for content in result.exams:
        if any(f.partial for f in content.objective_files):  # a file with schema errors is salvaged for the checks only
            say.info(f"{content.exam.id}: generated items are listed once the schema errors above are fixed")
            continue
        generation = generate(content)
        for sourced in generation.questions:
            say.info(f"{content.exam.id}: generated {sourced.question.id} ({sourced.rule}, {sourced.question.type}, drill)")
        for dropped in generation.dropped:
            extra = f" of {dropped.duplicate_of}" if dropped.duplicate_of and dropped.reason == "near_duplicate" else ""
            why = generation.details.get(dropped.id) or f"{dropped.reason}{extra}: {DROP_REASONS.get(dropped.reason, '')}".rstrip(": ")
            say.info(f"{content.exam.id}: dropped {dropped.id} ({dropped.rule}): {why}")
        for objective, term, reason in one_way_terms(content):
            say.info(f"{content.exam.id}: no definition -> term card for {term!r} ({objective}): {reason}")


def print_thin_rules(result: Validation) -> None:
    """One line per generation rule that kept less than a quarter of its drills, with what to declare."""
    from pipeline.practice.generate import generate  # here: a no-op build never loads the generator
    from pipeline.practice.kept import thin_rules
    from pipeline.practice.terms import sourced_terms

    for content in result.buildable:
        for line in thin_rules(generate(content), sourced_terms(content)):
            say.info(f"{content.exam.id}: {line}")


def counts(check: ExamCheck, verbose: bool) -> tuple[int, int]:
    """The exam's errors and warnings as printed: a count always equals the lines shown above it."""
    shown = shown_diagnostics(check, verbose)
    return sum(d.severity is Severity.ERROR for d in shown), sum(d.severity is Severity.WARNING for d in shown)


def table_rows(result: Validation, verbose: bool | None = None) -> list[tuple[str, int, int]]:
    """Per exam: its name, errors and warnings (as printed: with -v, else with the unchecked quotes as one line)."""
    verbose = say.verbose() if verbose is None else verbose
    return [(c.name, *counts(c, verbose)) for c in result.checks]


def print_table(result: Validation | list[tuple[str, int, int]], outputs: dict[str, str] | None = None) -> None:
    """The closing table on stderr: per exam its errors, warnings and (for `build`) what became of its outputs."""
    rows = [("exam", "errors", "warnings", *(("outputs",) if outputs is not None else ()))]
    for name, errors, warnings in result if isinstance(result, list) else table_rows(result):
        rows.append((name, str(errors), str(warnings), *((outputs.get(name, "not built"),) if outputs is not None else ())))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        cells = [cell.ljust(w) if i in (0, 3) else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths, strict=True))]
        say.info(for_terminal("  ".join(cells).rstrip()))


def validate_and_report(args: argparse.Namespace, *, table: bool = True, reader: Reader | None = None) -> Validation:
    """Run every offline check and print every problem, sorted, then a table per exam and a one-line summary on
    stderr. `reader` reads each exam's inputs once (the locks, item-stats.json, today): `build` passes its own,
    to build from the same reading."""
    from pipeline.check.validate import validate
    from pipeline.settings.reader import Reader  # here: the locks' models load pydantic, which a no-op build never needs
    from pipeline.stats.lockcheck import check_item_stats

    reader = reader or Reader(args.today, stats=True)
    result = validate(args.sources, reader.dates.today, strict=strictness(args), exams=getattr(args, "exam", None),
                      inputs=reader, judges=(check_item_stats,))
    if getattr(args, "settings", None) is not None:
        args.settings.check_exams(result.names)
    print_diagnostics(result, say.verbose())
    if say.verbose():
        print_generated(result)
    print_thin_rules(result)
    if table:
        print_table(result)
    print_summary(result)
    return result


def refused(checked: Validation, verb: str, why: str = "") -> bool:
    """For a verb that rewrites a lock from the sources: print every error and refuse (True) when there is one."""
    if checked.ok:
        return False
    for diagnostic in checked.report.sorted():
        say.problem(diagnostic.format())
    say.summary(f"{verb}: not run: fix the errors above first{why}")
    return True


def summary(result: Validation, verbose: bool | None = None) -> list[str]:
    """The closing lines of validation: what could not be checked, then the counts (of the lines printed)."""
    objectives = result.objective_count
    rows = table_rows(result, verbose)
    errors, warnings = sum(row[1] for row in rows), sum(row[2] for row in rows)
    lines = [f"validate: {check.name}: {sentence}" for check in result.checks for sentence in check.not_checked]
    unchecked = f"; {result.unchecked} item(s) not checked further until their schema errors are fixed" if result.unchecked else ""
    return [*lines, f"validate: {result.exam_count} exam(s), {objectives} objective(s): {errors} error(s), {warnings} warning(s){unchecked}"]


def print_summary(result: Validation | list[str]) -> None:
    for line in result if isinstance(result, list) else summary(result):
        say.summary(line)


def strictness(args: argparse.Namespace) -> Callable[[str], bool]:
    """Per exam: --strict, else the exam's `strict` in pipeline.toml, else the top level's, else off."""
    settings = getattr(args, "settings", None) or config.Settings()
    if args.strict:
        return lambda exam_id: True
    return lambda exam_id: bool(settings.for_exam(exam_id).strict)


def relative(paths: Sequence[Path]) -> list[str]:
    return [os.path.relpath(p) for p in paths]
