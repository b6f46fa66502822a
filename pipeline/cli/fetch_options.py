"""Options shared by the verbs that fetch cited pages (`audit`, `check-quote`): politeness and caching."""

from __future__ import annotations

import argparse
from pathlib import Path

from pipeline.citations.fetch import Fetcher
from pipeline.citations.http import FetchSettings

DEFAULTS = FetchSettings()


def add_fetch_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("fetching")
    group.add_argument("--per-host", type=int, default=DEFAULTS.per_host, metavar="N", help=f"requests at once to one host (default: {DEFAULTS.per_host})")
    group.add_argument("--interval", type=float, default=DEFAULTS.interval, metavar="SECONDS", help=f"between two requests to one host (default: {DEFAULTS.interval:g})")
    group.add_argument("--timeout", type=float, default=DEFAULTS.read_timeout, metavar="SECONDS", help=f"for a connection or an answer (default: {DEFAULTS.read_timeout:g})")
    group.add_argument("--retries", type=int, default=DEFAULTS.retries, metavar="N", help=f"on connection errors, 429 and 5xx (default: {DEFAULTS.retries})")
    group.add_argument("--cache", type=Path, default=Path("build") / "http-cache", metavar="DIR", help="HTTP cache for conditional requests (default: build/http-cache)")


def settings_from(args: argparse.Namespace) -> FetchSettings:
    return FetchSettings(
        connect_timeout=min(DEFAULTS.connect_timeout, args.timeout), read_timeout=args.timeout,
        retries=args.retries, per_host=max(args.per_host, 1), interval=max(args.interval, 0.0),
    )


def fetcher_from(args: argparse.Namespace) -> Fetcher:
    return Fetcher(settings_from(args), args.cache)
