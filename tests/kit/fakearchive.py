"""A local stand-in for the Wayback Machine, on the same loopback server as the test pages (`PageServer`).

It answers the CDX API (`/cdx/search/cdx?url=URL&to=YYYYMMDD|from=YYYYMMDD&limit=N&filter=statuscode:200
&fl=timestamp,original`) as the real archive does, in plain text, one capture per line in time order, and
serves each snapshot's original bytes at its `id_` address (`/web/TIMESTAMPid_/URL`). `api_delay` makes
the CDX API slow; an archive that is down is simply a closed port (see the tests).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

from tests.kit.pageserver import SAFETY, PageServer, Reply, Request

CDX = "/cdx/search/cdx"


@dataclass(frozen=True)
class Snap:
    timestamp: str  # YYYYMMDDhhmmss
    status: str = "200"  # what the archive got when it took the snapshot


class FakeArchive(PageServer):
    def __init__(self, api_delay: float = 0.0, hold: threading.Event | None = None) -> None:
        super().__init__()
        self.api_delay = api_delay
        self.hold = hold  # CDX answers wait until the test sets it (after the client has given up)
        self.snapshots: dict[str, list[Snap]] = {}
        self.listings: dict[str, str] = {}  # hostile: a page's CDX answer as given, whatever it says
        self.in_flight = self.most_in_flight = 0  # CDX requests being answered at once, and the most seen

    @property
    def base(self) -> str:
        return self.url("")

    def snapshot(self, original: str, timestamp: str, body: str, status: str = "200") -> str:
        """Register a capture of `original` taken at `timestamp`; return its viewer address."""
        self.snapshots.setdefault(original, []).append(Snap(timestamp, status))
        self.add(f"/web/{timestamp}id_/{original}", Reply(body=body))
        return self.url(f"/web/{timestamp}/{original}")

    def next_reply(self, path: str, request: Request) -> Reply:
        if not path.startswith(CDX):
            return super().next_reply(path, request)
        with self.lock:
            self.requests.append(request)
        self._count(+1)
        time.sleep(self.api_delay)  # here rather than in the reply, so that overlapping requests are counted
        if self.hold is not None:
            self.hold.wait(SAFETY)
        self._count(-1)
        query = {k: v[0] for k, v in parse_qs(urlsplit(path).query).items()}
        if query["url"] in self.listings:
            return Reply(body=self.listings[query["url"]], content_type="text/plain")
        lines = [f"{s.timestamp} {query['url']}\n" for s in self._captures(query)]
        return Reply(body="".join(lines), content_type="text/plain")

    def _captures(self, query: dict[str, str]) -> list[Snap]:
        snaps = sorted(self.snapshots.get(query["url"], []), key=lambda s: s.timestamp)
        if query.get("filter") == "statuscode:200":
            snaps = [s for s in snaps if s.status == "200"]
        if "to" in query:  # inclusive: a date stands for the whole day
            snaps = [s for s in snaps if s.timestamp[: len(query["to"])] <= query["to"]]
        if "from" in query:
            snaps = [s for s in snaps if s.timestamp[: len(query["from"])] >= query["from"]]
        limit = int(query.get("limit", "0"))
        return snaps[limit:] if limit < 0 else snaps[:limit] if limit else snaps

    def _count(self, step: int) -> None:
        with self.lock:
            self.in_flight += step
            self.most_in_flight = max(self.most_in_flight, self.in_flight)

    def cdx_queries(self) -> list[dict[str, str]]:
        return [{k: v[0] for k, v in parse_qs(urlsplit(r.path).query).items()} for r in self.requests if r.path.startswith(CDX)]


def allow_loopback() -> list[str]:
    """`--allow-host 127.0.0.1` for an audit of pages on this machine, where the audit has that option
    (DESIGN.md: loopback is refused unless allowed); nothing where it does not exist yet."""
    from pipeline.cli.main import make_parser

    parser = make_parser(["audit"])
    verbs = next(a for a in parser._actions if a.dest == "command")  # argparse keeps subparsers here
    return ["--allow-host", "127.0.0.1"] if "--allow-host" in verbs.choices["audit"]._option_string_actions else []
