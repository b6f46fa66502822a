"""`check-quote URL QUOTE [--json]`: is this quote on this page? Exit 0 found, 1 missing, 2 unreachable.

The contract (DESIGN.md) has three statuses: a drifted quote is `missing` (with its closest passage),
and a page that gives no text to check (dead, blocked, unreachable, unsupported) is `unreachable`; the
JSON's extra `detail` field names the audit's finer status and `reason` says why in a sentence.
"""

from __future__ import annotations

import argparse
import json
import re

from pipeline.citations.check import check_page
from pipeline.citations.status import Status
from pipeline.citations.verdict import CitationResult
from pipeline.citations.worddiff import with_markers, word_diff
from pipeline.cli.fetch_options import add_fetch_options, fetcher_from
from pipeline.errors import UsageError
from pipeline.text.terminal import for_terminal
from schema.models import _absolute_http_url

EXIT = {"found": 0, "missing": 1, "unreachable": 2}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("url", metavar="URL", help="the page's address (http or https)")
    parser.add_argument("quote", metavar="QUOTE", help="the quote, in the page's words; mark a cut with ...")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    add_fetch_options(parser)


def public_status(status: Status) -> str:
    if status is Status.FOUND:
        return "found"
    return "missing" if status in (Status.DRIFTED, Status.MISSING) else "unreachable"


def as_json(result: CitationResult) -> str:
    return json.dumps({
        "url": result.url, "status": public_status(result.status), "match": result.match, "score": result.score,
        "closest": result.closest, "detail": result.status.value, "reason": result.detail or None,
    }, ensure_ascii=False)


def as_text(result: CitationResult) -> str:
    status = public_status(result.status)
    if status == "unreachable":
        return f"unreachable: {result.url}: {result.detail} ({result.status.value})"
    if status == "found":
        return f"found ({result.match}): {result.url}\n    {result.closest}"
    lines = [f"missing: the quote is not on {result.url}"]
    if result.closest:
        lines.append(f"    closest passage ({result.score:.0%} alike): {result.closest}")
        lines.append(f"    diff: {with_markers(word_diff(result.quote, result.closest))}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    try:
        _absolute_http_url(args.url)
    except ValueError as exc:
        shown = re.sub(r"(//)[^/@\s]*@", r"\1***@", args.url)  # credentials are never printed back
        raise UsageError(f"error: URL {shown!r} {exc}") from None
    fetcher = fetcher_from(args)
    try:
        (result,) = check_page(fetcher, args.url, [args.quote])
    finally:
        fetcher.close()
    print(as_json(result) if args.json else "\n".join(for_terminal(line) for line in as_text(result).split("\n")))
    return EXIT[public_status(result.status)]
