"""The archive fallback: when a cited page is gone, missing the quote or unreachable, does an archived
snapshot of it still hold the quoted words?

The Wayback Machine's CDX API is asked for the last capture of the page that answered 200 on or before
the objective's `reviewed` date, the day the author read the page (`BASE/cdx/search/cdx?url=URL&to=
YYYYMMDD&filter=statuscode:200&limit=-1`), or, when there is none, the first one after it; then that
snapshot's original bytes (its `id_` address, without the archive's toolbar and rewritten links) are
read like any page and the quote is matched there. Found: `archived`, with the snapshot's address and
time. Not found, no capture, or the archive down or slow: the first status stands, and `archive_detail`
says why.

CDX rather than the availability API (`/wayback/available`, JSON): CDX finds the capture *before* the
review date, as wanted (the availability API gives the closest on either side, possibly one taken after
the page changed), filters out captures of error pages, and answers plain text, which the audit's
fetcher reads like any page: every request, the lookup included, goes through `Fetcher.fetch` with its
network policy, politeness per host (the archive is one host: at most `per_host` requests to it at once,
`interval` apart), timeouts, retries and size caps, and nothing here depends on how it does that. The
cost is a second lookup for a page first captured after its review.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from urllib.parse import urlencode

from pipeline.citations import address
from pipeline.citations.check import Pair
from pipeline.citations.fetch import OK, Fetcher
from pipeline.citations.lock import capture_time
from pipeline.citations.netpolicy import Refused
from pipeline.citations.normalize import NormalizedPage
from pipeline.citations.status import Status
from pipeline.citations.verdict import CitationResult, judge_all

PUBLIC_ARCHIVE = "https://web.archive.org"
FALLBACK = frozenset({Status.DEAD, Status.MISSING, Status.UNREACHABLE})  # the statuses a snapshot may heal
CAPTURE = re.compile(r"^(\d{14}) (\S+)$")  # a CDX line with fl=timestamp,original
FIRST_CAPTURE = dt.datetime(1996, 1, 1, tzinfo=dt.UTC)  # the Wayback Machine's first crawls: no capture is older


@dataclass(frozen=True)
class Snapshot:
    base: str  # the archive, e.g. https://web.archive.org
    timestamp: str  # YYYYMMDDhhmmss
    original: str  # the page's address as captured

    @property
    def url(self) -> str:
        """The viewer address: what a reader opens (with the archive's toolbar)."""
        return f"{self.base}/web/{self.timestamp}/{self.original}"

    @property
    def raw(self) -> str:
        """The `id_` form: the bytes as archived, without the toolbar or rewritten links."""
        return f"{self.base}/web/{self.timestamp}id_/{self.original}"


class NoSnapshot(Exception):
    """The archive gave no usable snapshot (a sentence says why)."""


def cdx_url(base: str, url: str, day: dt.date, before: bool) -> str:
    """The CDX query for the last good capture on or before `day`, or the first one after it."""
    when = {"to": day.strftime("%Y%m%d"), "limit": "-1"} if before else {"from": day.strftime("%Y%m%d"), "limit": "1"}
    return f"{base}/cdx/search/cdx?" + urlencode({"url": url, **when, "filter": "statuscode:200", "fl": "timestamp,original"})


def parse_cdx(text: str, base: str, asked: str, today: dt.date) -> Snapshot | None:
    """The last capture listed (None when none is); `NoSnapshot` when the answer is not a CDX listing, or
    its capture is not of the page asked for or not at a real past time: the archive's answer is checked
    like any address from outside (`address`), never taken on trust."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    captures = [CAPTURE.match(line) for line in lines]
    if not all(captures):
        raise NoSnapshot("the archive's answer is not a CDX listing (timestamp and address per line)")
    if not captures:
        return None
    timestamp, original = captures[-1].group(1), captures[-1].group(2)
    _check_time(timestamp, today)
    try:
        page = address.canonical(original)
    except Refused as exc:
        raise NoSnapshot(f"the archive's capture has an address that is refused ({exc})") from None
    if not address.same_page(page, asked):
        raise NoSnapshot("the archive's capture is of another page than the one asked for")
    return Snapshot(base, timestamp, page)


def _check_time(timestamp: str, today: dt.date) -> None:
    """A capture's YYYYMMDDhhmmss must be a real moment, not before the archive began nor after today."""
    when = capture_time(timestamp)
    if when is None:
        raise NoSnapshot(f"the archive's capture has an impossible time ({timestamp})")
    if when < FIRST_CAPTURE or when.date() > today:
        raise NoSnapshot(f"the archive's capture has a time outside {FIRST_CAPTURE.year} to today ({timestamp})")


class Archive:
    """Asks an archive (the public one, or any at `base` answering the same API) through `fetcher`."""

    def __init__(self, fetcher: Fetcher, base: str, today: dt.date) -> None:
        self.fetcher, self.base = fetcher, base.rstrip("/")
        self.today = today  # no capture can be newer (the audit's --today, handed in: this module reads no clock)

    def snapshot(self, url: str, day: dt.date) -> Snapshot:
        """The last good capture on or before `day`, else the first after it; `NoSnapshot` when none."""
        for before in (True, False):
            answer = self.fetcher.fetch(cdx_url(self.base, url, day, before))
            if answer.status != OK or answer.text is None:
                raise NoSnapshot(f"the archive did not answer: {answer.detail or answer.status}")
            if found := parse_cdx(answer.text, self.base, url, self.today):
                return found
        raise NoSnapshot("the archive has no capture of the page")

    def recheck(self, url: str, day: dt.date, results: list[CitationResult]) -> list[CitationResult]:
        """The results of one page's quotes, each healed to `archived` when the snapshot of `day` (see
        `snapshot`) holds it, else with `archive_detail` saying what the archive gave."""
        try:
            snapshot = self.snapshot(url, day)
        except NoSnapshot as exc:
            return [replace(r, archive_detail=str(exc)) for r in results]
        page = self.fetcher.fetch(snapshot.raw)
        if page.status != OK or page.text is None:
            detail = f"the archived copy of {snapshot.timestamp} could not be read: {page.detail}"
            return [replace(r, archive_detail=detail) for r in results]
        text = NormalizedPage.of(page.text)
        verdicts = judge_all([r.quote for r in results], page, text)
        return [healed(r, verdict, snapshot) for r, verdict in zip(results, verdicts, strict=True)]


def healed(result: CitationResult, verdict: CitationResult, snapshot: Snapshot) -> CitationResult:
    if verdict.status is not Status.FOUND:
        return replace(result, archive_detail=f"the archived copy of {snapshot.timestamp} does not hold the quote either")
    return replace(result, status=Status.ARCHIVED, archive_url=snapshot.url, archive_timestamp=snapshot.timestamp,
                   match=verdict.match, score=verdict.score, closest=verdict.closest, context=verdict.context)


def heal(results: dict[Pair, CitationResult], days: dict[Pair, dt.date], archive: Archive) -> dict[Pair, CitationResult]:
    """`results` with every dead, missing or unreachable quote re-checked on the archive: a CDX lookup (two
    when no capture precedes the day) and one snapshot per (page, day), in the fetcher's threads; its host
    gate keeps the archive's share to `per_host` requests at once, `interval` apart, as for any host."""
    asks: dict[tuple[str, dt.date], list[CitationResult]] = defaultdict(list)
    for pair, result in results.items():
        if result.status in FALLBACK:
            asks[(pair[0], days[pair])].append(result)
    with ThreadPoolExecutor(max_workers=max(1, min(archive.fetcher.settings.workers, len(asks)))) as pool:
        done = pool.map(lambda ask: archive.recheck(ask[0][0], ask[0][1], ask[1]), sorted(asks.items()))
        healed_results = [r for batch in done for r in batch]
    return {**results, **{(r.url, r.quote): r for r in healed_results}}
