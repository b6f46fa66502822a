"""Check many (url, quote) pairs: each page fetched once, hosts in parallel, quotes matched as pages arrive.

Matching runs in the thread that fetched the page, so parsing and matching one page overlaps the network
waits of the others. The fetcher is a parameter: anything with `fetch(url) -> PageResult`.
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Protocol

from pipeline.citations.fetch import OK, PageResult
from pipeline.citations.http import FetchSettings
from pipeline.citations.normalize import NormalizedPage
from pipeline.citations.polite import host_of
from pipeline.citations.verdict import CitationResult, judge_all

Pair = tuple[str, str]  # (url, quote)


class PageFetcher(Protocol):
    def fetch(self, url: str) -> PageResult: ...


def check_page(fetcher: PageFetcher, url: str, quotes: list[str]) -> list[CitationResult]:
    """Fetch one page and judge every quote that cites it; the page is normalized once for all of them."""
    result = fetcher.fetch(url)
    page = NormalizedPage.of(result.text) if result.status == OK and result.text is not None else None
    return judge_all(quotes, result, page)


def by_host(urls: Iterable[str]) -> dict[str, deque[str]]:
    queues: dict[str, deque[str]] = defaultdict(deque)
    for url in urls:
        queues[host_of(url)].append(url)
    return dict(sorted(queues.items()))


def check_all(pairs: Iterable[Pair], fetcher: PageFetcher, workers: int, on_page: Callable[[str], None] | None = None,
              per_host: int = 1) -> dict[Pair, CitationResult]:
    """The result of every pair; `on_page(url)` is called as each page is done (for a progress bar).

    Work is split into lanes: `per_host` lanes per host, each taking that host's pages one after the other.
    A thread is then never parked waiting for a busy host while another host has a free slot (as happens
    when a shared pool takes pages in a fixed order). Lanes are started host by host, first lanes first."""
    quotes: dict[str, list[str]] = defaultdict(list)
    for url, quote in dict.fromkeys(pairs):
        quotes[url].append(quote)
    queues = by_host(quotes)

    def lane(queue: deque[str]) -> list[CitationResult]:
        done = []
        while True:
            try:
                url = queue.popleft()  # atomic: lanes of one host share its queue
            except IndexError:
                return done
            done.extend(check_page(fetcher, url, quotes[url]))
            if on_page:
                on_page(url)

    lanes = [queue for n in range(per_host) for queue in queues.values() if len(queue) > n]
    with ThreadPoolExecutor(max_workers=max(1, min(workers, len(lanes)))) as pool:
        futures = [pool.submit(lane, queue) for queue in lanes]
        return {(r.url, r.quote): r for future in futures for r in future.result()}


def pool_size(urls: Iterable[str], settings: FetchSettings) -> int:
    """Enough threads for every host's share of concurrent requests, within the configured limit."""
    hosts = {host_of(url) for url in urls}
    return max(1, min(settings.workers, len(hosts) * settings.per_host))
