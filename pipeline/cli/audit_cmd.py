"""`audit`: fetch every cited page, check every quote and review date, update each exam's lock.

Exit 0 when every quote is found and every review date is fresh, 1 when anything needs an author; with
`--new-only`, 1 only when something needs an author that the committed lock did not already record; 2 when
no page could be reached at all (no network: one line, the locks as they were; see `citations/offline.py`).
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from dataclasses import replace
from pathlib import Path

from pipeline.check.validate import validate
from pipeline.citations.archive import PUBLIC_ARCHIVE, Archive
from pipeline.citations.audit import AuditResult, Healing, audit, citation_refs, update_locks
from pipeline.citations.check import pool_size
from pipeline.citations.fetch import Fetcher
from pipeline.citations.fixmoves import Move, fix_moves
from pipeline.citations.moves import RedirectLog
from pipeline.citations.newonly import committed, new_problems
from pipeline.citations.offline import no_network
from pipeline.citations.status import Status
from pipeline.cli.common import add_exam_option, refused
from pipeline.cli.fetch_options import add_fetch_options, fetcher_from
from pipeline.findings.audit_report import counts, write_report
from pipeline.findings.blast import blast_radius
from pipeline.findings.summary import progress, show
from pipeline.settings.reader import Reader
from pipeline.text.terminal import for_terminal


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sources", type=Path, default=Path("sources"), metavar="DIR", help="the sources folder (default: sources)")
    add_exam_option(parser, "audit")
    parser.add_argument("--report", type=Path, action="append", metavar="FILE", help="also write the results as JSON (Markdown when FILE ends in .md); may be given twice")
    parser.add_argument("--today", metavar="YYYY-MM-DD", help="the date of the audit (default: SOURCE_DATE_EPOCH, else the clock)")
    archive = parser.add_mutually_exclusive_group()
    archive.add_argument("--archive-url", type=_http_url, default=PUBLIC_ARCHIVE, metavar="URL", help=f"the Wayback Machine to ask for snapshots of gone pages (default: {PUBLIC_ARCHIVE})")
    archive.add_argument("--no-archive", action="store_true", help="do not look for archived snapshots")
    parser.add_argument("--new-only", action="store_true", help="exit 1 only for problems the committed lock did not already record (the report still lists all)")
    parser.add_argument("--fix-moves", action="store_true", help="rewrite the address of each moved page (permanent redirect) in the sources, comments and layout kept")
    add_fetch_options(parser)


def _http_url(text: str) -> str:
    if not text.startswith(("http://", "https://")):
        raise argparse.ArgumentTypeError(f"{text!r}: expected an http(s) address, e.g. {PUBLIC_ARCHIVE}")
    return text


def _healing(args: argparse.Namespace, fetcher: Fetcher, today: dt.date) -> Healing:
    archive = None if args.no_archive else Archive(fetcher, args.archive_url, today)
    return Healing(RedirectLog().watch(fetcher.client.session), archive)


def _fixed(result: AuditResult) -> AuditResult:
    """Each moved citation rewritten in its source (printed), and counted as found at its new address; a
    move that cannot be written safely is an error line, and the citation stays `moved`."""
    moved = [(ref, r) for ref, r in result.citations if r.status is Status.MOVED and r.moved_to]
    done, refused = fix_moves([Move(ref, r.moved_to) for ref, r in moved])
    for move, line in done:
        print(for_terminal(f"{move.ref.place.file}:{line}: fixed: {move.ref.url} -> {move.new_url}"), file=sys.stderr)
    for move, why in refused:
        where = move.ref.place
        print(for_terminal(f"{where.file}:{where.position.line}:{where.position.col}: error: {why}"), file=sys.stderr)
    fixed = {id(move.ref) for move, _ in done}
    fixes = {id(ref): (replace(ref, url=r.moved_to), replace(r, url=r.moved_to, status=Status.FOUND, moved_to=None))
             for ref, r in moved if id(ref) in fixed}
    return replace(result, citations=[fixes.get(id(ref), (ref, r)) for ref, r in result.citations])


def run(args: argparse.Namespace) -> int:
    reader = Reader(args.today)  # the locks as committed, read once: the audit compares with them, then rewrites them
    today = reader.dates.today
    checked = validate(args.sources, today, exams=args.exam)
    if refused(checked, "audit", " (an audit rewrites the lock from the sources)"):
        return 1
    exams = checked.exams
    locks = {content.exam.id: reader(content).citations for content in exams}
    fetcher = fetcher_from(args)
    urls = {ref.url for ref in citation_refs(exams)}
    try:
        healing = _healing(args, fetcher, today)
        with progress(len(urls)) as tick:
            result = audit(exams, locks, fetcher, today, pool_size(urls, fetcher.settings), tick, fetcher.settings.per_host, healing)
    finally:
        fetcher.close()
    if offline := no_network(result):  # nothing learnt: the locks stay as they were, no report, no blast radius
        print(f"audit: {offline}", file=sys.stderr)
        return 2
    before = committed(result, locks)  # before this audit rewrites them
    if args.fix_moves:
        result = _fixed(result)
    written, unchanged = update_locks(exams, locks, result, today)
    new = new_problems(result, before) if args.new_only else None
    blasts = blast_radius(result, reader)  # once: it builds each exam's view
    show(result, blasts=blasts)
    for report in args.report or []:
        write_report(report, result, today.isoformat(), new, blasts)
    tally = ", ".join(f"{n} {status}" for status, n in counts(result).items() if n)
    lock_note = "; ".join(part for part in (f"updated {', '.join(map(str, written))}" if written else "",
                                            f"unchanged {', '.join(map(str, unchanged))}" if unchanged else "") if part)
    print(f"audit: {len(result.citations)} quote(s) on {len(urls)} page(s): {tally or 'none'}; "
          f"{len(result.stale_reviews)} review date(s) to renew; lock {lock_note}", file=sys.stderr)
    if new is not None:
        print(f"audit: {len(new)} new problem(s) since the committed lock", file=sys.stderr)
        return 1 if new else 0
    return 0 if result.ok else 1
