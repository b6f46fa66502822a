"""`build`: validate, then render every output; nothing is replaced unless everything succeeded.

Before anything is loaded, the bytes the build reads are hashed (pipeline/publish/noop.py): when they
and the settings are those of the last successful build into OUT and its outputs are all still there,
the build says again what that one said and stops. The checks, the view and the renderers are imported
only past that point.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pipeline.cli.common import (
    add_source_options,
    print_sorted,
    print_summary,
    print_table,
    shown_diagnostics,
    summary,
    table_rows,
    validate_and_report,
)
from pipeline.cli.crash import environment_message
from pipeline.diagnostics import Diagnostic, Severity
from pipeline.errors import PipelineError, UsageError
from pipeline.position import Position
from pipeline.publish import noop
from pipeline.text.terminal import for_terminal
from pipeline.today import resolve_today

if TYPE_CHECKING:
    from pipeline.build import BuildResult
    from pipeline.check.validate import Validation

PAPERS = ("a4", "letter")  # CSS page size names, as weasyprint takes them
PRINT_ONLY = frozenset({"verbose", "debug", "run", "command"})  # settings that change what is printed, not built


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_source_options(parser, "build")
    parser.add_argument("--out", type=Path, default=Path("build"), metavar="DIR", help="the output folder (default: build)")
    parser.add_argument("--force", action="store_true", help="rebuild every output, even those whose inputs did not change")
    parser.add_argument("--paper", choices=PAPERS, default="a4", type=str.lower, help="page size of the study guide (default: a4)")


def _outputs(names: list[str], written: list[Path], unchanged: list[Path], out: Path, failed: dict | None = None) -> dict[str, str]:
    """Per exam built: how many outputs were written and how many left unchanged."""
    cells = {}
    for name in names:
        if failed and name in failed:
            cells[name] = "not built (failed)"
            continue
        folder = out / name
        cells[name] = f"{sum(folder in p.parents for p in written)} written, {sum(folder in p.parents for p in unchanged)} unchanged"
    return cells


def settings(args: argparse.Namespace) -> dict[str, Any]:
    """Every setting that decides what a build does (any option a verb adds counts, unless it only
    changes what is printed), "today" resolved and SOURCE_DATE_EPOCH: part of the no-op fingerprint."""
    values = {k: str(v.absolute()) if isinstance(v, Path) else v for k, v in vars(args).items() if k not in PRINT_ONLY}
    loaded = sys.modules.get("pipeline.build")  # in a process that swapped the renderers (tests), which ones
    renderers = [f"{name}={entry!r}" for name, entry in loaded.RENDERERS.items()] if loaded else None
    return {**values, "today": resolve_today(args.today).isoformat(), "SOURCE_DATE_EPOCH": os.environ.get("SOURCE_DATE_EPOCH", ""),
            "renderers": renderers}


def _why(exc: Exception) -> str:
    if isinstance(exc, PipelineError):
        return str(exc).removeprefix("error: ")
    if isinstance(exc, OSError):
        return environment_message(exc).removeprefix("error: ")
    return "an internal error (reported below)"


def _gravity(exc: Exception) -> int:
    return 1 if isinstance(exc, PipelineError) and not isinstance(exc, UsageError) else 2 if isinstance(exc, PipelineError | OSError) else 3


def _print_unchanged(paths: list[Path]) -> None:
    for path in paths:
        print(for_terminal(f"unchanged {os.path.relpath(path)} (inputs did not change; --force rebuilds)"), file=sys.stderr)


def _print_build(built: BuildResult) -> None:
    for sentence in built.recovered:
        print(for_terminal(f"build: warning: {sentence}"), file=sys.stderr)
    for warning in built.warnings:
        print(for_terminal(f"warning: {warning}"), file=sys.stderr)
    for path in built.written:
        print(for_terminal(f"wrote {os.path.relpath(path)}"), file=sys.stderr)
    _print_unchanged(built.unchanged)
    for exam_id, exc in built.failed.items():
        print(for_terminal(f"build: not built: {exam_id}: {_why(exc)}; its earlier outputs were left as they were"), file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    """Each exam without errors is built, whatever the others hold; the exit is 1 when any exam has errors."""
    chosen = settings(args)
    fingerprint = None if args.force else noop.fingerprint(args.sources, chosen)
    if fingerprint and (record := noop.recall(args.out, fingerprint)) is not None:
        return _replay(record, args)
    from pipeline.build import build  # past the no-op check: the checks, the view and the renderers

    result = validate_and_report(args, table=False)
    built = build(result.buildable, args.out, options={"paper": args.paper}, force=args.force)
    _print_build(built)
    print_table(result, _outputs([c.exam.id for c in result.buildable], built.written, built.unchanged, args.out, built.failed))
    if built.failed:  # the worst one decides the exit (a bug: 3, the environment: 2), as if it alone had happened
        raise max(built.failed.values(), key=_gravity)
    if not result.ok:
        failed = ", ".join(c.name for c in result.checks if not c.ok)
        print(for_terminal(f"build: not built: {failed}: fix the errors above; their earlier outputs were left as they were"), file=sys.stderr)
        print_summary(result)
        return 1
    # kept only when nothing changed while building: the record must describe what was read
    if fingerprint and result.checks and noop.fingerprint(args.sources, chosen) == fingerprint:
        noop.remember(args.out, fingerprint, _record(result, built, args.out))
    return 0


def _diagnostic_data(d: Diagnostic) -> list:
    return [str(d.path.absolute()), d.position.line, d.position.col, d.severity.value, d.message, d.code]


def _record(result: Validation, built: BuildResult, out: Path) -> dict[str, Any]:
    """What this build printed, and the generation each exam's link points to, for `noop.recall`."""
    from pipeline.build import published

    exams = []
    for check in result.checks:
        generation, files = published(out, check.name)
        warnings = [w.removeprefix(f"{check.name}: ") for w in built.warnings if w.startswith(f"{check.name}: ")]
        exams.append({"id": check.name, "generation": generation, "files": files, "warnings": warnings,
                      "state": noop.state_digest(out, generation)})
    shown = {mode: [_diagnostic_data(d) for c in result.checks for d in shown_diagnostics(c, verbose)]
             for mode, verbose in (("grouped", False), ("verbose", True))}
    return {"exams": exams, "diagnostics": shown, "table": table_rows(result), "summary": summary(result)}


def _replay(record: dict[str, Any], args: argparse.Namespace) -> int:
    """Print what the recorded build printed, every output now unchanged."""
    rows = record["diagnostics"]["verbose" if args.verbose else "grouped"]
    print_sorted([Diagnostic(Path(p), Position(line, col), Severity(sev), message, code) for p, line, col, sev, message, code in rows])
    print_summary(tuple(record["summary"]))
    unchanged = [args.out / e["id"] / f for e in record["exams"] for f in e["files"]]
    for exam in record["exams"]:
        for warning in exam["warnings"]:
            print(for_terminal(f"warning: {exam['id']}: {warning}"), file=sys.stderr)
    _print_unchanged(unchanged)
    names = [e["id"] for e in record["exams"]]
    print_table([tuple(row) for row in record["table"]], _outputs(names, [], unchanged, args.out))
    return 0
