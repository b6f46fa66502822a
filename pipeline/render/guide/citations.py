"""Citations as the guide shows them: numbered references, call-out quotes and their check status.

Every cited page gets one number, in the order a reader meets it; a call-out's quote points at that
number, and the References appendix lists each page once with how many quotes it backs and how
their last check went. Check results come from the citation lock; a quote without an entry shows
"not yet checked", never a guess.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass

from pipeline.citations.lock import UNCHECKED, CitationLock, LockEntry
from pipeline.load.content import ExamContent
from schema.models import Citation

# What each lock status means to a reader, in a few words (statuses: see pipeline/citations/lock.py).
STATUS_LABELS = {
    UNCHECKED: "not yet checked",
    "found": "found on the page",
    "drifted": "wording changed on the page",
    "missing": "not found on the page",
    "dead": "page gone",
    "blocked": "site refused the check",
    "unreachable": "page unreachable",
    "unsupported": "page could not be read",
}


@dataclass(frozen=True)
class CheckStatus:
    status: str  # the lock's word: found, missing, unchecked, ...
    checked: dt.date | None

    @property
    def label(self) -> str:
        return STATUS_LABELS.get(self.status, self.status)

    @property
    def ok(self) -> bool:
        return self.status == "found"

    @property
    def text(self) -> str:
        """"found on the page, 2026-11-20" or "not yet checked"."""
        return f"{self.label}, {self.checked.isoformat()}" if self.checked else self.label


@dataclass(frozen=True)
class QuoteView:
    quote: str
    title: str
    url: str
    ref: int  # the page's number in References
    check: CheckStatus


@dataclass(frozen=True)
class ReferenceView:
    number: int
    title: str
    url: str
    quotes: int  # how many distinct quotes from this page the guide uses
    statuses: tuple[tuple[str, int], ...]  # (status label, how many quotes), most frequent first
    last_checked: dt.date | None
    objectives: tuple[str, ...]  # ids of the objectives that cite it


def check_of(lock: CitationLock, citation: Citation) -> CheckStatus:
    entry: LockEntry = lock.entry(citation.url, citation.quote)
    return CheckStatus(entry.status, entry.checked)


class References:
    """Page numbers by first citation, built once over the whole exam."""

    def __init__(self, content: ExamContent, lock: CitationLock) -> None:
        self.lock = lock
        self.cited: dict[str, list[tuple[str, Citation]]] = {}  # url -> (objective id, citation), in reading order
        for objective in content.objectives:
            for point in objective.key_points:
                for citation in point.citations:
                    self.cited.setdefault(citation.url, []).append((objective.id, citation))
        self.numbers = {url: n for n, url in enumerate(self.cited, start=1)}

    def quote(self, citation: Citation) -> QuoteView:
        return QuoteView(citation.quote, citation.title, citation.url, self.numbers[citation.url], check_of(self.lock, citation))

    def listing(self) -> list[ReferenceView]:
        return [self._reference(url, uses) for url, uses in self.cited.items()]

    def _reference(self, url: str, uses: list[tuple[str, Citation]]) -> ReferenceView:
        distinct = list({c.quote: c for _, c in uses}.values())  # the same quote cited twice is one quote
        checks = [check_of(self.lock, c) for c in distinct]
        statuses = Counter(check.label for check in checks).most_common()
        dates = [check.checked for check in checks if check.checked]
        objectives = tuple(dict.fromkeys(objective_id for objective_id, _ in uses))
        return ReferenceView(self.numbers[url], uses[0][1].title, url, len(distinct), tuple(statuses), max(dates, default=None), objectives)
