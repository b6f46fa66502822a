"""`stats [--exam ID] FILE...`: learners' answers to item statistics. Exit 0 written, 1 a bad file (nothing written)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pipeline.check.validate import validate
from pipeline.cli.common import print_diagnostics
from pipeline.errors import PipelineError, UsageError
from pipeline.settings.reader import Reader
from pipeline.stats.run import print_unmatched, run_stats
from pipeline.text.terminal import for_terminal


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", type=Path, metavar="FILE", help="response exports: Moodle Responses or Statistics, Canvas item or "
                                                                           "student analysis CSV, or the long format (learner,question_id,response,score,time)")
    parser.add_argument("--sources", type=Path, default=Path("sources"), metavar="DIR", help="the sources folder (default: sources)")
    parser.add_argument("--exam", metavar="ID", help="the exam the answers are to (needed when the sources hold several)")
    parser.add_argument("--out", type=Path, metavar="DIR", help="where the report goes (default: build/stats/<exam>)")
    parser.add_argument("--today", metavar="YYYY-MM-DD", help="the date recorded with the statistics (default: SOURCE_DATE_EPOCH, else the clock)")
    parser.add_argument("--all-attempts", action="store_true", help="count every attempt, not only each learner's first")
    parser.add_argument("--since", metavar="YYYY-MM-DD", type=_date, help="count only attempts on or after this day (UTC); answers without a time "
                                                                          "are left out with it")


def _date(text: str):
    import datetime as dt

    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a date such as 2026-09-01, got {text!r}") from None


def run(args: argparse.Namespace) -> int:
    reader = Reader(args.today)  # not item-stats.json: it is about to be rewritten
    today = reader.dates.today
    result = validate(args.sources, today, inputs=reader, exams=[args.exam] if args.exam else None)
    if len(result.checks) != 1:
        names = ", ".join(c.name for c in result.checks)
        raise UsageError(f"error: the sources hold several exams ({names}); say which the answers are to with --exam ID")
    check = result.checks[0]
    if not check.ok:
        print_diagnostics(result, verbose=False)
        raise PipelineError(f"stats: exam '{check.name}' has errors in its sources; fix them first (nothing written)")
    out = args.out or Path("build") / "stats" / check.name
    done = run_stats(reader(check.content), args.files, out, today, args.all_attempts, args.since)
    print_unmatched(done.parsed)
    d = done.data
    print(for_terminal(f"stats: {check.name}: {d.learners} learners, {d.answers} answers counted ({d.later_attempts} later attempts set aside), "
          + (f"{d.before_since} before {d.since.isoformat()} left out, " if d.since else "")
          + f"{len(d.items)} items, {done.findings} with findings; wrote {done.item_stats} and {done.report_dir / 'report.md'}"), file=sys.stderr)
    return 0
