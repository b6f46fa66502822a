"""`build`: validate, then render every output; nothing is replaced unless everything succeeded."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from pipeline.build import BuildResult, build
from pipeline.check.validate import Validation
from pipeline.cli.common import add_source_options, print_summary, print_table, validate_and_report
from pipeline.cli.crash import environment_message
from pipeline.errors import PipelineError, UsageError
from pipeline.text.terminal import for_terminal

PAPERS = ("a4", "letter")  # CSS page size names, as weasyprint takes them



def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_source_options(parser, "build")
    parser.add_argument("--out", type=Path, default=Path("build"), metavar="DIR", help="the output folder (default: build)")
    parser.add_argument("--force", action="store_true", help="rebuild every output, even those whose inputs did not change")
    parser.add_argument("--paper", choices=PAPERS, default="a4", type=str.lower, help="page size of the study guide (default: a4)")


def _outputs(result: Validation, built: BuildResult, out: Path) -> dict[str, str]:
    """Per exam built: how many outputs were written and how many left unchanged."""
    cells = {}
    for content in result.buildable:
        if content.exam.id in built.failed:
            cells[content.exam.id] = "not built (failed)"
            continue
        folder = out / content.exam.id
        written = sum(folder in p.parents for p in built.written)
        unchanged = sum(folder in p.parents for p in built.unchanged)
        cells[content.exam.id] = f"{written} written, {unchanged} unchanged"
    return cells


def _why(exc: Exception) -> str:
    if isinstance(exc, PipelineError):
        return str(exc).removeprefix("error: ")
    if isinstance(exc, OSError):
        return environment_message(exc).removeprefix("error: ")
    return "an internal error (reported below)"


def _gravity(exc: Exception) -> int:
    return 1 if isinstance(exc, PipelineError) and not isinstance(exc, UsageError) else 2 if isinstance(exc, PipelineError | OSError) else 3


def run(args: argparse.Namespace) -> int:
    """Each exam without errors is built, whatever the others hold; the exit is 1 when any exam has errors."""
    result = validate_and_report(args, table=False)
    built = build(result.buildable, args.out, options={"paper": args.paper}, force=args.force)
    for sentence in built.recovered:
        print(for_terminal(f"build: warning: {sentence}"), file=sys.stderr)
    for warning in built.warnings:
        print(for_terminal(f"warning: {warning}"), file=sys.stderr)
    for path in built.written:
        print(for_terminal(f"wrote {os.path.relpath(path)}"), file=sys.stderr)
    for path in built.unchanged:
        print(for_terminal(f"unchanged {os.path.relpath(path)} (inputs did not change; --force rebuilds)"), file=sys.stderr)
    for exam_id, exc in built.failed.items():
        print(for_terminal(f"build: not built: {exam_id}: {_why(exc)}; its earlier outputs were left as they were"), file=sys.stderr)
    print_table(result, _outputs(result, built, args.out))
    if built.failed:  # the worst one decides the exit (a bug: 3, the environment: 2), as if it alone had happened
        raise max(built.failed.values(), key=_gravity)
    if not result.ok:
        failed = ", ".join(c.name for c in result.checks if not c.ok)
        print(for_terminal(f"build: not built: {failed}: fix the errors above; their earlier outputs were left as they were"), file=sys.stderr)
        print_summary(result)
        return 1
    return 0
