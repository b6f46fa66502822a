"""Check many (url, quote) pairs: each page fetched once, hosts in parallel, quotes matched as pages arrive.

Matching runs in the worker that fetched the page, so parsing and matching one page overlaps the network
waits of the others. The fetcher is a parameter: anything with `fetch(url) -> PageResult`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor, as_completed
from itertools import chain, zip_longest
from typing import Protocol

from pipeline.citations.fetch import OK, PageResult
from pipeline.citations.http import FetchSettings
from pipeline.citations.normalize import NormalizedPage
from pipeline.citations.polite import host_of
from pipeline.citations.verdict import CitationResult, judge

Pair = tuple[str, str]  # (url, quote)


class PageFetcher(Protocol):
    def fetch(self, url: str) -> PageResult: ...


def check_page(fetcher: PageFetcher, url: str, quotes: list[str]) -> list[CitationResult]:
    """Fetch one page and judge every quote that cites it; the page is normalized once for all of them."""
    result = fetcher.fetch(url)
    page = NormalizedPage.of(result.text) if result.status == OK and result.text is not None else None
    return [judge(quote, result, page) for quote in quotes]


def interleaved(urls: Iterable[str]) -> list[str]:
    """URLs in turns of hosts (a, b, c, a, b, c...), so no worker waits on a busy host while others idle."""
    by_host: dict[str, list[str]] = defaultdict(list)
    for url in urls:
        by_host[host_of(url)].append(url)
    rounds = zip_longest(*(by_host[host] for host in sorted(by_host)))
    return [url for url in chain.from_iterable(rounds) if url is not None]


def check_all(pairs: Iterable[Pair], fetcher: PageFetcher, workers: int, on_page: Callable[[str], None] | None = None) -> dict[Pair, CitationResult]:
    """The result of every pair; `on_page(url)` is called as each page is done (for a progress bar)."""
    quotes: dict[str, list[str]] = defaultdict(list)
    for url, quote in dict.fromkeys(pairs):
        quotes[url].append(quote)
    results: dict[Pair, CitationResult] = {}
    with ThreadPoolExecutor(max_workers=max(1, min(workers, len(quotes)))) as pool:
        futures = {pool.submit(check_page, fetcher, url, quotes[url]): url for url in interleaved(quotes)}
        for future in as_completed(futures):
            results.update(((r.url, r.quote), r) for r in future.result())
            if on_page:
                on_page(futures[future])
    return results


def pool_size(urls: Iterable[str], settings: FetchSettings) -> int:
    """Enough threads for every host's share of concurrent requests, within the configured limit."""
    hosts = {host_of(url) for url in urls}
    return max(1, min(settings.workers, len(hosts) * settings.per_host))
