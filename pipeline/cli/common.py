"""Options and output shared by the verbs that read the sources."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pipeline.check.validate import Validation, validate
from pipeline.today import resolve_today


def add_source_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sources", type=Path, default=Path("sources"), metavar="DIR", help="the sources folder (default: sources)")
    parser.add_argument("--strict", action="store_true", help="treat warnings as errors")
    parser.add_argument("--today", metavar="YYYY-MM-DD", help="the date to check review dates against (default: SOURCE_DATE_EPOCH, else the clock)")


def validate_and_report(args: argparse.Namespace) -> Validation:
    """Run every offline check and print every problem, sorted, then a one-line summary on stderr."""
    result = validate(args.sources, resolve_today(args.today), strict=args.strict)
    for diagnostic in result.report.sorted():
        print(diagnostic.format())
    objectives = sum(len(e.objective_files) for e in result.exams)
    errors, warnings = len(result.report.errors), len(result.report.warnings)
    print(f"validate: {len(result.exams)} exam(s), {objectives} objective(s): {errors} error(s), {warnings} warning(s)", file=sys.stderr)
    return result
