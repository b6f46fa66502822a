"""Options shared by the verbs that fetch cited pages (`audit`, `check-quote`): politeness, caching, and
the hosts that may be reached although they are not public (`--allow-host` only: pipeline.toml's `allow_hosts` is
refused with a warning).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pipeline.citations.fetch import Fetcher
from pipeline.citations.http import FetchSettings
from pipeline.citations.netpolicy import AllowList
from pipeline.diagnostics import Position
from pipeline.errors import UsageError
from pipeline.settings import project as config
from pipeline.settings.project import Settings
from pipeline.text.terminal import for_terminal

DEFAULTS = FetchSettings()


def add_fetch_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("fetching")
    group.add_argument("--per-host", type=int, default=DEFAULTS.per_host, metavar="N", help=f"requests at once to one host (default: {DEFAULTS.per_host})")
    group.add_argument("--interval", type=float, default=DEFAULTS.interval, metavar="SECONDS", help=f"between two requests to one host (default: {DEFAULTS.interval:g})")
    group.add_argument("--timeout", type=float, default=DEFAULTS.read_timeout, metavar="SECONDS", help=f"for a connection or an answer (default: {DEFAULTS.read_timeout:g})")
    group.add_argument("--deadline", type=float, default=DEFAULTS.total_timeout, metavar="SECONDS", help=f"for a whole page, redirects included, however slowly it comes (default: {DEFAULTS.total_timeout:g})")
    group.add_argument("--retries", type=int, default=DEFAULTS.retries, metavar="N", help=f"on connection errors, 429 and 5xx (default: {DEFAULTS.retries})")
    group.add_argument("--cache", type=Path, default=Path("build") / "http-cache", metavar="DIR", help="HTTP cache for conditional requests (default: build/http-cache)")
    group.add_argument("--allow-host", action="append", default=[], metavar="HOST[:PORT]",
                       help="also fetch from this loopback, private or link-local host (any port, or PORT only); repeatable; only here, never from pipeline.toml")


def allow_list(args: argparse.Namespace) -> AllowList:
    """The hosts of `--allow-host` only: a file in the content repository (pipeline.toml's `allow_hosts`) must
    not open loopback, private or metadata addresses to an audit that a CI job runs unattended; it is warned of."""
    settings: Settings = config.checked(getattr(args, "settings", None) or config.load())
    if settings.allow_hosts:
        at = settings.places.get(("allow_hosts",), (Position(1, 1), Position(1, 1)))[0]
        print(for_terminal(f"{settings.path}:{at.line}:{at.col}: warning: allow_hosts: not honoured: a file in the content repository "
                           f"cannot allow loopback, private or metadata addresses ({', '.join(settings.allow_hosts)}); "
                           "allow a host on the command line: --allow-host HOST[:PORT] [config]"), file=sys.stderr)
    try:
        return AllowList.parse(list(args.allow_host))
    except ValueError as exc:
        raise UsageError(f"error: --allow-host {exc}") from None


def settings_from(args: argparse.Namespace) -> FetchSettings:
    return FetchSettings(
        connect_timeout=min(DEFAULTS.connect_timeout, args.timeout), read_timeout=args.timeout,
        total_timeout=max(args.deadline, 0.1), retries=args.retries, per_host=max(args.per_host, 1), interval=max(args.interval, 0.0),
        allow=allow_list(args),
    )


def fetcher_from(args: argparse.Namespace) -> Fetcher:
    return Fetcher(settings_from(args), args.cache)
