"""The fetcher the checks are given: a cited page's visible text, or the reason there is none.

`Fetcher.fetch(url)` waits for its turn at the host (`polite`), downloads through `http` and reads the
text (`pagetext`). Any object with a `fetch(url) -> PageResult` method can stand in for it, so the
checks run on strings in tests and on a real local server in others.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from pipeline.citations.cache import HttpCache
from pipeline.citations.http import FetchFailure, FetchSettings, HttpClient
from pipeline.citations.pagetext import Unsupported, page_text
from pipeline.citations.polite import HostGate

OK = "ok"


@dataclass(frozen=True)
class PageResult:
    url: str
    status: str  # "ok", or why there is no text: dead | blocked | unreachable | unsupported
    text: str | None = None
    detail: str = ""  # a sentence for the author when status is not ok
    http_status: int | None = None
    final_url: str | None = None
    revalidated: bool = False  # a 304 confirmed the cached copy
    size: int = 0  # bytes of body received (0 after a 304)


class Fetcher:
    def __init__(self, settings: FetchSettings | None = None, cache_dir: Path | None = None) -> None:
        self.settings = settings or FetchSettings()
        self.gate = HostGate(self.settings.per_host, self.settings.interval)
        self.client = HttpClient(self.settings, HttpCache(cache_dir) if cache_dir else None)

    def fetch(self, url: str) -> PageResult:
        try:
            with self.gate.slot(url):
                download = self.client.get(url)
        except FetchFailure as failure:
            return PageResult(url, failure.status, detail=failure.detail, http_status=failure.http_status)
        except Exception as exc:  # noqa: BLE001 - one odd page (an undecodable host name...) must not stop the audit
            return PageResult(url, "unreachable", detail=f"the page could not be fetched ({type(exc).__name__}: {exc})")
        size = 0 if download.revalidated else len(download.body)
        found = PageResult(url, OK, None, "", download.http_status, download.final_url, download.revalidated, size)
        try:
            return replace(found, text=page_text(download.body, download.content_type, download.encoding))
        except Unsupported as exc:
            return replace(found, status="unsupported", detail=str(exc))
        except Exception as exc:  # noqa: BLE001 - a page that breaks a parser is the page's problem, reported as such
            return replace(found, status="unsupported", detail=f"the page's text cannot be read ({type(exc).__name__})")

    def close(self) -> None:
        self.client.session.close()
