"""A local stand-in for the Wayback Machine, on the same loopback server as the test pages (`PageServer`).

It answers the availability API (`/wayback/available?url=URL&timestamp=YYYYMMDD`) with the registered
snapshot closest in time, in the JSON shape of the real archive, and serves each snapshot's original bytes
at its `id_` address (`/web/TIMESTAMPid_/URL`); the address it hands out is the viewer form
(`/web/TIMESTAMP/URL`), as the real archive's. `api_delay` makes the API slow; an archive that is down is
simply a closed port (see the tests).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

from tests.pageserver import PageServer, Reply, Request


@dataclass(frozen=True)
class Snap:
    timestamp: str  # YYYYMMDDhhmmss
    status: str = "200"  # what the archive got when it took the snapshot


class FakeArchive(PageServer):
    def __init__(self, api_delay: float = 0.0) -> None:
        super().__init__()
        self.api_delay = api_delay
        self.snapshots: dict[str, list[Snap]] = {}
        self.in_flight = self.most_in_flight = 0  # API requests being answered at once, and the most seen

    @property
    def base(self) -> str:
        return self.url("")

    def snapshot(self, original: str, timestamp: str, body: str, status: str = "200") -> str:
        """Register a snapshot of `original` taken at `timestamp`; return its viewer address."""
        self.snapshots.setdefault(original, []).append(Snap(timestamp, status))
        self.add(f"/web/{timestamp}id_/{original}", Reply(body=body))
        return self.url(f"/web/{timestamp}/{original}")

    def next_reply(self, path: str, request: Request) -> Reply:
        if not path.startswith("/wayback/available"):
            return super().next_reply(path, request)
        with self.lock:
            self.requests.append(request)
        query = parse_qs(urlsplit(path).query)
        self._count(+1)
        time.sleep(self.api_delay)  # here rather than in the reply, so that overlapping requests are counted
        self._count(-1)
        return Reply(body=json.dumps(self._available(query["url"][0], query.get("timestamp", [""])[0])), content_type="application/json")

    def _count(self, step: int) -> None:
        with self.lock:
            self.in_flight += step
            self.most_in_flight = max(self.most_in_flight, self.in_flight)

    def _available(self, original: str, timestamp: str) -> dict:
        snaps = self.snapshots.get(original, [])
        if not snaps:
            return {"url": original, "archived_snapshots": {}}
        wanted = int(timestamp.ljust(14, "0")) if timestamp else 0
        snap = min(snaps, key=lambda s: abs(int(s.timestamp) - wanted))
        closest = {"available": True, "url": self.url(f"/web/{snap.timestamp}/{original}"), "timestamp": snap.timestamp, "status": snap.status}
        return {"url": original, "archived_snapshots": {"closest": closest}}

    def api_queries(self) -> list[dict[str, list[str]]]:
        return [parse_qs(urlsplit(r.path).query) for r in self.requests if r.path.startswith("/wayback/available")]
