"""`build`: validate, then render every output; nothing is replaced unless everything succeeded."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from pipeline.build import build
from pipeline.cli.common import add_source_options, validate_and_report

PAPERS = ("a4", "letter")  # CSS page size names, as weasyprint takes them



def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_source_options(parser)
    parser.add_argument("--out", type=Path, default=Path("build"), metavar="DIR", help="the output folder (default: build)")
    parser.add_argument("--force", action="store_true", help="rebuild every output, even those whose inputs did not change")
    parser.add_argument("--paper", choices=PAPERS, default="a4", type=str.lower, help="page size of the study guide (default: a4)")


def run(args: argparse.Namespace) -> int:
    result = validate_and_report(args)
    if not result.ok:
        print("build: not built: fix the errors above; earlier outputs were left as they were", file=sys.stderr)
        return 1
    built = build(result.exams, args.out, options={"paper": args.paper}, force=args.force)
    for sentence in built.recovered:
        print(f"build: warning: {sentence}", file=sys.stderr)
    for warning in built.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    for path in built.written:
        print(f"wrote {os.path.relpath(path)}", file=sys.stderr)
    for path in built.unchanged:
        print(f"unchanged {os.path.relpath(path)} (inputs did not change; --force rebuilds)", file=sys.stderr)
    return 0
