"""The archive fallback: when a cited page is gone, missing the quote or unreachable, does an archived
snapshot of it still hold the quoted words?

One question to the Wayback Machine's availability API (`BASE/wayback/available?url=URL&timestamp=
YYYYMMDD`), asking for the snapshot closest to the objective's `reviewed` date, the day the author read
the page; then that snapshot's original bytes (the `id_` form of its address, without the archive's
toolbar and rewritten links) are read like any page and the quote is matched there. Found: `archived`,
with the snapshot's address and time. Not found, no snapshot, or the archive down or slow: the first
status stands, and `archive_detail` says why.

The availability API rather than CDX: one small JSON answer per page, with the nearest snapshot that
answered 200 already chosen. CDX could list only snapshots before the date, but needs a second request
(or a scan of a listing) per page and does not filter out error captures by default; a snapshot taken
a little after the review that still holds the quote is just as good a witness.

Both requests go through the audit's own fetcher: the same politeness per host (the archive is one host,
so at most `per_host` requests to it at once, `interval` apart), timeouts, retries and size caps.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from urllib.parse import urlencode

from pipeline.citations.check import Pair
from pipeline.citations.fetch import OK, Fetcher
from pipeline.citations.http import FetchFailure
from pipeline.citations.normalize import NormalizedPage
from pipeline.citations.status import Status
from pipeline.citations.verdict import CitationResult, judge

PUBLIC_ARCHIVE = "https://archive.org"
FALLBACK = frozenset({Status.DEAD, Status.MISSING, Status.UNREACHABLE})  # the statuses a snapshot may heal
SNAPSHOT = re.compile(r"/web/(\d{1,14})(?:[a-z]{2}_)?/")


@dataclass(frozen=True)
class Snapshot:
    url: str  # the archive's viewer address, as the API gives it: what a reader opens
    timestamp: str  # YYYYMMDDhhmmss

    @property
    def original(self) -> str:
        """The `id_` form: the bytes as archived, without the archive's toolbar."""
        return SNAPSHOT.sub(lambda m: f"/web/{m.group(1)}id_/", self.url, count=1)


class NoSnapshot(Exception):
    """The archive gave no usable snapshot (a sentence says why)."""


def availability_url(base: str, url: str, day: dt.date) -> str:
    return f"{base.rstrip('/')}/wayback/available?" + urlencode({"url": url, "timestamp": day.strftime("%Y%m%d")})


def parse_availability(body: bytes) -> Snapshot:
    """The closest snapshot from an availability answer; `NoSnapshot` when there is none or it is no page."""
    try:
        closest = json.loads(body.decode("utf-8"))["archived_snapshots"].get("closest") or {}
    except (ValueError, KeyError, TypeError, AttributeError):
        raise NoSnapshot("the archive's answer is not the availability API's JSON") from None
    if not isinstance(closest, dict) or not closest.get("available") or not isinstance(closest.get("url"), str):
        raise NoSnapshot("the archive has no snapshot of the page")
    if str(closest.get("status", "200")) != "200":
        raise NoSnapshot(f"the archive's closest snapshot is an HTTP {closest.get('status')} answer, not the page")
    timestamp = str(closest.get("timestamp", ""))
    if not SNAPSHOT.search(closest["url"]) or not timestamp.isdigit():
        raise NoSnapshot("the archive's snapshot address is not of the form /web/TIMESTAMP/URL")
    return Snapshot(closest["url"], timestamp)


class Archive:
    """Asks an archive (the public one, or any at `base` answering the same API) through `fetcher`."""

    def __init__(self, fetcher: Fetcher, base: str = PUBLIC_ARCHIVE) -> None:
        self.fetcher, self.base = fetcher, base

    def snapshot(self, url: str, day: dt.date) -> Snapshot:
        api = availability_url(self.base, url, day)
        try:
            with self.fetcher.gate.slot(api):
                download = self.fetcher.client.get(api)
        except FetchFailure as failure:
            raise NoSnapshot(f"the archive did not answer: {failure.detail}") from None
        return parse_availability(download.body)

    def recheck(self, url: str, day: dt.date, results: list[CitationResult]) -> list[CitationResult]:
        """The results of one page's quotes, each healed to `archived` when the snapshot closest to `day`
        holds it, else with `archive_detail` saying what the archive gave."""
        try:
            snapshot = self.snapshot(url, day)
        except NoSnapshot as exc:
            return [replace(r, archive_detail=str(exc)) for r in results]
        page = self.fetcher.fetch(snapshot.original)
        if page.status != OK or page.text is None:
            detail = f"the archived copy of {snapshot.timestamp} could not be read: {page.detail}"
            return [replace(r, archive_detail=detail) for r in results]
        text = NormalizedPage.of(page.text)
        return [healed(r, judge(r.quote, page, text), snapshot) for r in results]


def healed(result: CitationResult, verdict: CitationResult, snapshot: Snapshot) -> CitationResult:
    if verdict.status is not Status.FOUND:
        return replace(result, archive_detail=f"the archived copy of {snapshot.timestamp} does not hold the quote either")
    return replace(result, status=Status.ARCHIVED, archive_url=snapshot.url, archive_timestamp=snapshot.timestamp,
                   match=verdict.match, score=verdict.score, closest=verdict.closest, context=verdict.context)


def heal(results: dict[Pair, CitationResult], days: dict[Pair, dt.date], archive: Archive) -> dict[Pair, CitationResult]:
    """`results` with every dead, missing or unreachable quote re-checked on the archive: one availability
    question and one snapshot per (page, day), in the fetcher's threads; its host gate keeps the archive's
    share to `per_host` requests at once, `interval` apart, as for any host."""
    asks: dict[tuple[str, dt.date], list[CitationResult]] = defaultdict(list)
    for pair, result in results.items():
        if result.status in FALLBACK:
            asks[(pair[0], days[pair])].append(result)
    with ThreadPoolExecutor(max_workers=max(1, min(archive.fetcher.settings.workers, len(asks)))) as pool:
        done = pool.map(lambda ask: archive.recheck(ask[0][0], ask[0][1], ask[1]), sorted(asks.items()))
        healed_results = [r for batch in done for r in batch]
    return {**results, **{(r.url, r.quote): r for r in healed_results}}
