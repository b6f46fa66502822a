"""The status of one citation, from what fetching its page gave and what matching found there.

found: the quote stands on the page. drifted: the page answers, the quote is not on it, but a close
passage is (the page was reworded, or the quote misquotes it). missing: nothing close. dead: 404/410.
blocked: 401/403/429 after retries. unreachable: DNS, refused, timeout, TLS, server errors.
unsupported: not HTML, text or PDF, or over the size cap. Only found, drifted and missing are verdicts
on the quote's words; the others say the words could not be checked.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from pipeline.citations.fetch import OK, PageResult
from pipeline.citations.normalize import NormalizedPage
from pipeline.citations.passage import Kept, context_at
from pipeline.citations.quote_match import Kind, Match, find_all
from pipeline.citations.status import Status


@dataclass(frozen=True)
class CitationResult:
    url: str
    quote: str
    status: Status
    match: str | None = None  # exact | normalized | fuzzy
    score: float = 0.0
    closest: str | None = None  # the matched passage when found, else the closest one
    detail: str = ""  # why the words could not be checked
    http_status: int | None = None
    final_url: str | None = None
    fingerprint: str | None = None  # of the page's normalized text: tells a changed page from an unchanged one
    revalidated: bool = False
    context: str | None = None  # found: the page's text around the quote (`passage.context_of`)
    archive_url: str | None = None  # archived: the snapshot holding the quote
    archive_timestamp: str | None = None
    archive_detail: str = ""  # why the archive gave no copy, when it was asked and gave none
    moved_to: str | None = None  # moved: the page's new address
    warnings: tuple[str, ...] = ()  # e.g. changed-since-review, with `passage_diff`
    passage_diff: str | None = None  # the word diff of the passage around the quote since it was reviewed
    kept: Kept | None = None  # the passage the lock keeps after this audit (set by `audit.since_review`)


def fingerprint(page: NormalizedPage) -> str:
    return "sha256:" + hashlib.sha256(page.joined.encode("utf-8")).hexdigest()[:16]


def status_of(match: Match) -> Status:
    if match.found:
        return Status.FOUND
    return Status.DRIFTED if match.kind is Kind.FUZZY else Status.MISSING


def judge(quote: str, result: PageResult, page: NormalizedPage | None) -> CitationResult:
    """The citation's result; `page` is `result`'s text normalized (None when there is no text)."""
    return judge_all([quote], result, page)[0]


def judge_all(quotes: list[str], result: PageResult, page: NormalizedPage | None) -> list[CitationResult]:
    """The results of every quote citing one page, matched together (`match.find_all`)."""
    if result.status != OK or page is None:
        return [CitationResult(result.url, quote, Status(result.status), detail=result.detail, http_status=result.http_status)
                for quote in quotes]
    page_print = fingerprint(page)
    return [CitationResult(result.url, quote, status_of(match), match.kind.value if match.kind else None, match.score, match.passage,
                           http_status=result.http_status, final_url=result.final_url, fingerprint=page_print, revalidated=result.revalidated,
                           context=context_at(match.where, page) if match.found and match.where else None)
            for quote, match in zip(quotes, find_all(quotes, page), strict=True)]
