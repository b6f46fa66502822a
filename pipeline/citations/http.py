"""The HTTP client for cited pages: one requests Session, retries through urllib3's `Retry`, timeouts,
redirects followed one hop at a time under the network policy, a size cap, a total deadline, a User-Agent
naming the project, and conditional requests from `cache`.

`HttpClient.get` returns the page's bytes or raises `FetchFailure` with the status it amounts to and a
sentence for the author. Faults of the network or the server (DNS, refused, timeout, TLS, 5xx, a redirect
loop) are `unreachable`, refusals `blocked` (by the server, or by `netpolicy` for an address the audit may
not reach), 404/410 `dead`: never a verdict on the page's words. The body is read only for the media
types whose text can be checked, and never past the size cap or the deadline (`safeconn.Deadline`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from email.message import Message

import requests
from urllib3.exceptions import ConnectTimeoutError, NameResolutionError, NewConnectionError, ReadTimeoutError, SSLError
from urllib3.response import BaseHTTPResponse
from urllib3.util.retry import Retry

from pipeline import __version__
from pipeline.citations import address
from pipeline.citations.cache import CachedPage, HttpCache
from pipeline.citations.netpolicy import AllowList, Refused, check_url
from pipeline.citations.refresh import meta_refresh
from pipeline.citations.safeconn import Deadline, SafeAdapter

USER_AGENT = f"exam-prep-pipeline/{__version__} (checks that quoted words are on the cited page)"
RETRY_STATUSES = (429, 500, 502, 503, 504)
DEAD, BLOCKED = (404, 410), (401, 403, 407, 429, 451)
REDIRECTS = (301, 302, 303, 307, 308)
TEXT_TYPES = ("text/html", "application/xhtml+xml", "text/plain", "application/pdf")


@dataclass(frozen=True)
class FetchSettings:
    """How pages are fetched; the defaults are polite to the sites quoted."""

    connect_timeout: float = 10.0
    read_timeout: float = 30.0  # between two bytes
    total_timeout: float = 120.0  # the whole download, every hop, so a trickling server cannot hold a thread
    retries: int = 3
    backoff: float = 1.0  # seconds before the second retry, doubling after
    max_redirects: int = 10
    max_bytes: int = 20_000_000
    per_host: int = 2  # requests at once to one host
    interval: float = 0.5  # seconds between two request starts to one host
    workers: int = 32  # threads in all; each host still gets at most per_host of them at once
    allow: AllowList = AllowList()  # non-public hosts the audit may reach (--allow-host, pipeline.toml)


class FetchFailure(Exception):
    def __init__(self, status: str, detail: str, http_status: int | None = None) -> None:
        super().__init__(detail)
        self.status, self.detail, self.http_status = status, detail, http_status


@dataclass(frozen=True)
class Download:
    url: str
    final_url: str
    http_status: int  # the page's status: 200 also when a 304 confirmed the cached copy
    content_type: str | None
    encoding: str | None  # only a charset the server names; else the parser detects it
    body: bytes
    revalidated: bool = False  # a 304 answered: the body came from the cache


class CappedRetry(Retry):
    """urllib3's Retry, honouring `Retry-After` up to a limit: a server asking for an hour gets a minute."""

    MAX_RETRY_AFTER = 60.0

    def get_retry_after(self, response: BaseHTTPResponse) -> float | None:
        seconds = super().get_retry_after(response)
        return None if seconds is None else min(seconds, self.MAX_RETRY_AFTER)


def make_session(settings: FetchSettings) -> requests.Session:
    retry = CappedRetry(
        total=settings.retries, connect=settings.retries, read=settings.retries, status=settings.retries, other=0,
        backoff_factor=settings.backoff, status_forcelist=RETRY_STATUSES, allowed_methods=frozenset({"GET"}),
        respect_retry_after_header=True, raise_on_status=False, redirect=False,
    )
    session = requests.Session()
    session.trust_env = False  # no proxy or .netrc from the environment: the policy checks the real peer
    adapter = SafeAdapter(settings.allow, max_retries=retry, pool_maxsize=max(settings.workers, 10))
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    session.headers["User-Agent"] = USER_AGENT
    return session


def charset(content_type: str | None) -> str | None:
    if not content_type:
        return None
    message = Message()
    message["content-type"] = content_type
    value = message.get_param("charset")
    return value if isinstance(value, str) else None


def media_type_of(content_type: str | None) -> str | None:
    return content_type.split(";")[0].strip().lower() if content_type else None


def describe(exc: requests.RequestException, settings: FetchSettings) -> str:
    """A sentence for a network fault, naming its kind (DNS, refused, timeout, TLS)."""
    reason = getattr(exc.args[0], "reason", None) if exc.args else None
    if isinstance(exc, requests.exceptions.SSLError) or isinstance(reason, SSLError):
        return f"TLS error: {reason or exc}"
    if isinstance(reason, NameResolutionError) or "Name or service not known" in str(exc):
        return "the host name does not resolve (DNS)"
    if isinstance(reason, NewConnectionError):  # before timeouts: urllib3 makes it a kind of ConnectTimeoutError
        return "the connection was refused" if "refused" in str(reason).lower() else f"no connection: {reason}"
    if isinstance(exc, requests.ConnectTimeout) or isinstance(reason, ConnectTimeoutError):
        return f"no connection within {settings.connect_timeout:g} s"
    if isinstance(exc, requests.ReadTimeout) or isinstance(reason, ReadTimeoutError):
        return f"the server did not answer within {settings.read_timeout:g} s"
    return f"network error: {type(exc).__name__}"


class HttpClient:
    def __init__(self, settings: FetchSettings, cache: HttpCache | None = None) -> None:
        self.settings = settings
        self.cache = cache
        self.session = make_session(settings)

    def get(self, url: str) -> Download:
        """The page at `url`, following redirects and meta refreshes, all within the total deadline."""
        with Deadline(self.settings.total_timeout) as deadline:
            try:
                download = self._follow(url)
            except (requests.RequestException, Refused, FetchFailure) as exc:
                if not deadline.expired:
                    raise _as_failure(exc, self.settings) from None
            if deadline.expired:  # the cut may also look like the end of a body without a length
                raise FetchFailure("unreachable", f"the page took over {self.settings.total_timeout:g} s to download")
            return download

    def _follow(self, url: str) -> Download:
        """Each hop's URL and address are checked; a redirect or a meta refresh is one more hop."""
        cached = self.cache.get(url) if self.cache else None
        headers = cached.validators() if cached else {}
        current = url
        for _ in range(self.settings.max_redirects + 1):
            check_url(current)
            answer = self._hop(url, current, headers, cached)
            if isinstance(answer, str):
                current = answer
                continue
            refresh = _refresh_target(answer)
            if refresh is None:
                return answer
            current = _next_hop(refresh, answer.final_url, "meta refresh")
        raise FetchFailure("unreachable", f"more than {self.settings.max_redirects} redirects (a redirect loop?)")

    def _hop(self, url: str, current: str, headers: dict[str, str], cached: CachedPage | None) -> Download | str:
        """One request: a Download, or the absolute URL a redirect points to."""
        timeout = (self.settings.connect_timeout, self.settings.read_timeout)
        with self.session.get(current, headers=headers, timeout=timeout, stream=True, allow_redirects=False) as response:
            if response.status_code in REDIRECTS and response.headers.get("Location"):
                return _next_hop(response.headers["Location"], current, f"redirect (HTTP {response.status_code})")
            return self._answer(url, response, cached)

    def _answer(self, url: str, response: requests.Response, cached: CachedPage | None) -> Download:
        code = response.status_code
        if code == 304 and cached and (body := self.cache.body(url)) is not None:
            return Download(url, cached.final_url, 200, cached.content_type, cached.encoding, body, revalidated=True)
        _raise_for_status(code, self.settings.retries)
        content_type = response.headers.get("Content-Type")
        kind = media_type_of(content_type)
        if kind is not None and kind not in TEXT_TYPES:  # never read a body whose text cannot be checked
            raise FetchFailure("unsupported", f"the page is {kind}, not HTML, plain text or PDF", code)
        download = Download(url, response.url, code, content_type, charset(content_type), self._read(response))
        if self.cache:
            headers = response.headers
            page = CachedPage(url, response.url, content_type, download.encoding, headers.get("ETag"), headers.get("Last-Modified"))
            self.cache.put(page, download.body)
        return download

    def _read(self, response: requests.Response) -> bytes:
        """The whole body, or a failure as soon as it is over the size cap (counted as it streams in)."""
        cap, started = self.settings.max_bytes, time.monotonic()
        declared = response.headers.get("Content-Length", "")
        if declared.isdigit() and int(declared) > cap:
            raise FetchFailure("unsupported", f"the page is {int(declared):,} bytes, over the {cap:,}-byte cap", response.status_code)
        chunks, size = [], 0
        for chunk in response.iter_content(64 * 1024):
            size += len(chunk)
            if size > cap:
                raise FetchFailure("unsupported", f"the page is over the {cap:,}-byte cap", response.status_code)
            if time.monotonic() - started > self.settings.total_timeout:
                raise FetchFailure("unreachable", f"the page took over {self.settings.total_timeout:g} s to download")
            chunks.append(chunk)
        return b"".join(chunks)


def _next_hop(target: str, base: str, kind: str) -> str:
    """Where a redirect or a meta refresh points, normalised and checked (`address`); `Refused` otherwise."""
    try:
        return address.canonical(target, base)
    except Refused as exc:
        raise Refused(f"the page's {kind} points to an address that is refused: {exc}") from None


def _as_failure(exc: Exception, settings: FetchSettings) -> FetchFailure:
    if isinstance(exc, FetchFailure):
        return exc
    if isinstance(exc, Refused):
        return FetchFailure("blocked", str(exc))
    return FetchFailure("unreachable", describe(exc, settings))


def _refresh_target(download: Download) -> str | None:
    if media_type_of(download.content_type) not in (None, "text/html", "application/xhtml+xml"):
        return None
    return meta_refresh(download.body)


def _raise_for_status(code: int, retries: int) -> None:
    if code in DEAD:
        raise FetchFailure("dead", f"the page is gone (HTTP {code})", code)
    if code == 429:
        raise FetchFailure("blocked", f"the server still answered HTTP 429 (too many requests) after {retries} retries", code)
    if code in BLOCKED:
        raise FetchFailure("blocked", f"the server refused the request (HTTP {code})", code)
    if code >= 500:
        raise FetchFailure("unreachable", f"the server failed (HTTP {code}) after {retries} retries", code)
    if not 200 <= code < 300:
        raise FetchFailure("unreachable", f"unexpected answer HTTP {code}", code)
