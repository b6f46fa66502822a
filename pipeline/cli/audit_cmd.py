"""`audit`: fetch every cited page, check every quote and review date, update each exam's lock.

Exit 0 when every quote is found and every review date is fresh, 1 when anything needs an author.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pipeline.check.validate import validate
from pipeline.citations.audit import audit, citation_refs, update_locks
from pipeline.citations.check import pool_size
from pipeline.citations.report import counts, write_report
from pipeline.citations.summary import progress, show
from pipeline.cli.fetch_options import add_fetch_options, fetcher_from
from pipeline.errors import UsageError
from pipeline.load.content import ExamContent
from pipeline.today import resolve_today


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sources", type=Path, default=Path("sources"), metavar="DIR", help="the sources folder (default: sources)")
    parser.add_argument("--exam", metavar="ID", help="audit only this exam")
    parser.add_argument("--report", type=Path, metavar="FILE", help="also write the results as JSON (Markdown when FILE ends in .md)")
    parser.add_argument("--today", metavar="YYYY-MM-DD", help="the date of the audit (default: SOURCE_DATE_EPOCH, else the clock)")
    add_fetch_options(parser)


def _exams(args: argparse.Namespace, loaded: list[ExamContent]) -> list[ExamContent]:
    if not args.exam:
        return loaded
    chosen = [e for e in loaded if e.exam.id == args.exam]
    if not chosen:
        known = ", ".join(e.exam.id for e in loaded) or "none"
        raise UsageError(f"error: no exam '{args.exam}' in {args.sources} (exams: {known})")
    return chosen


def run(args: argparse.Namespace) -> int:
    today = resolve_today(args.today)
    checked = validate(args.sources, today, lock=False)
    if not checked.ok:
        for diagnostic in checked.report.sorted():
            print(diagnostic.format())
        print("audit: not run: fix the errors above first (an audit rewrites the lock from the sources)", file=sys.stderr)
        return 1
    exams = _exams(args, checked.exams)
    fetcher = fetcher_from(args)
    urls = {ref.url for ref in citation_refs(exams)}
    try:
        with progress(len(urls)) as tick:
            result = audit(exams, fetcher, today, pool_size(urls, fetcher.settings), tick, fetcher.settings.per_host)
    finally:
        fetcher.close()
    written = update_locks(exams, result, today)
    show(result)
    if args.report:
        write_report(args.report, result, today.isoformat())
    tally = ", ".join(f"{n} {status}" for status, n in counts(result).items() if n)
    print(f"audit: {len(result.citations)} quote(s) on {len(urls)} page(s): {tally or 'none'}; "
          f"{len(result.stale_reviews)} review date(s) to renew; updated {', '.join(map(str, written))}", file=sys.stderr)
    return 0 if result.ok else 1
