"""A real HTTP server on loopback for the citation tests and benchmark: http.server in a thread.

Each path answers with a scripted list of replies (the last one repeats), so a test can serve "500, then
200", a 429 with Retry-After, a redirect loop, a slow answer, an oversized body or a page with an ETag
that answers 304 to a conditional request; and hostile ones: a body dripped a byte at a time, or one that
never ends. It records every request and counts the bytes it sends.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass(frozen=True)
class Reply:
    status: int = 200
    body: bytes | str = b""
    content_type: str | None = "text/html; charset=utf-8"
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds before the answer starts
    etag: str | None = None  # answer 304 to If-None-Match with this tag
    last_modified: str | None = None  # answer 304 to If-Modified-Since with this date
    content_length: bool = True  # False: a body delimited by closing the connection
    wait_for_peer: float = 0.0  # hold the answer up to this long until another request is in flight too
    peers: int = 0  # hold the answer until this many requests are in flight, or every one of `of` has come (events, not times)
    of: int = 0  # how many requests the test will make in all (so the last ones are not held for peers that cannot come)
    hold: threading.Event | None = None  # hold the answer until the test sets it (after the client has given up)
    drip: float = 0.0  # hostile: seconds between single bytes of the body
    endless: bytes = b""  # hostile: after the body, this chunk again and again until the client hangs up

    @property
    def data(self) -> bytes:
        return self.body.encode("utf-8") if isinstance(self.body, str) else self.body


@dataclass
class Request:
    path: str
    headers: dict[str, str]
    started: float
    status: int = 0


class _Counting:
    """The handler's output stream, counting the bytes written (headers and body)."""

    def __init__(self, stream, server: PageServer) -> None:
        self.stream, self.server = stream, server

    def write(self, data: bytes) -> int:
        with self.server.lock:
            self.server.sent_bytes += len(data)
        return self.stream.write(data)

    def __getattr__(self, name: str):
        return getattr(self.stream, name)


class _Handler(BaseHTTPRequestHandler):
    server_version = "pageserver"
    sys_version = ""

    def setup(self) -> None:
        super().setup()
        self.wfile = _Counting(self.wfile, self.server.pages)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (http.server's signature)
        pass  # quiet tests

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        pages: PageServer = self.server.pages
        request = Request(self.path, dict(self.headers.items()), time.monotonic())
        reply = pages.next_reply(self.path, request)
        with pages.answering():
            time.sleep(reply.delay)
            pages.wait_for_peer(reply.wait_for_peer)
            if reply.peers:
                pages.wait_for_active(reply.peers, reply.of)
            if reply.hold is not None:
                reply.hold.wait(SAFETY)
            self._answer(reply, request)

    def _answer(self, reply: Reply, request: Request) -> None:
        if _not_modified(reply, self.headers):
            request.status = 304
            self.send_response(304)
            if reply.etag:
                self.send_header("ETag", reply.etag)
            self.end_headers()
            return
        request.status = reply.status
        self.send_response(reply.status)
        for name, value in {**({"Content-Type": reply.content_type} if reply.content_type else {}), **reply.headers}.items():
            self.send_header(name, value)
        if reply.etag:
            self.send_header("ETag", reply.etag)
        if reply.last_modified:
            self.send_header("Last-Modified", reply.last_modified)
        if reply.content_length:
            self.send_header("Content-Length", str(len(reply.data)))
        self.end_headers()
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the client stopped reading: as tested
            _write_body(self.wfile, reply)


def _write_body(out, reply: Reply) -> None:
    if not reply.drip:
        out.write(reply.data)
    for i in range(len(reply.data) if reply.drip else 0):
        out.write(reply.data[i:i + 1])
        out.flush()
        time.sleep(reply.drip)
    while reply.endless:
        out.write(reply.endless)


def _not_modified(reply: Reply, headers) -> bool:
    if reply.etag and headers.get("If-None-Match") == reply.etag:
        return True
    return bool(reply.last_modified and headers.get("If-Modified-Since") == reply.last_modified)


SAFETY = 60.0  # the longest a held answer waits for its event: a bound on a broken test, never a measured time


class PageServer:
    """`with PageServer() as server: server.add("/a", Reply(body=...)); server.url("/a")`."""

    def __init__(self, host: str = "127.0.0.1", delay: float = 0.0) -> None:
        self.host, self.delay = host, delay
        self.routes: dict[str, list[Reply]] = {}
        self.requests: list[Request] = []
        self.sent_bytes = 0
        self.lock = threading.Lock()
        self.active = 0  # requests being answered now
        self.most_active = 0  # the most requests ever answered at once: what politeness limits
        self._changed = threading.Condition(self.lock)
        self.httpd = ThreadingHTTPServer((host, 0), _Handler)
        self.httpd.daemon_threads = True
        self.httpd.pages = self
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    def add(self, path: str, *replies: Reply) -> str:
        self.routes[path] = list(replies)
        return self.url(path)

    def url(self, path: str) -> str:
        return f"http://{self.host}:{self.httpd.server_address[1]}{path}"

    def next_reply(self, path: str, request: Request) -> Reply:
        with self.lock:
            self.requests.append(request)
            replies = self.routes.get(path) or [Reply(404, "not here")]
            reply = replies.pop(0) if len(replies) > 1 else replies[0]
            self._changed.notify_all()  # wait_for_hits
        return reply if not self.delay else Reply(**{**reply.__dict__, "delay": reply.delay + self.delay})

    @contextlib.contextmanager
    def answering(self):
        """Count a request as being answered while the block runs."""
        with self._changed:
            self.active += 1
            self.most_active = max(self.most_active, self.active)
            self._changed.notify_all()
        try:
            yield
        finally:
            with self._changed:
                self.active -= 1
                self._changed.notify_all()

    def wait_for_peer(self, limit: float) -> None:
        """Hold this answer until another request is in flight too (or `limit` seconds pass), so that a
        client allowed N requests at once is seen making N: overlap comes from the server, not from luck."""
        with self._changed:
            self._changed.wait_for(lambda: self.active > 1, timeout=limit)

    def wait_for_active(self, count: int, total: int) -> None:
        """Hold this answer until `count` requests are in flight at once, or all `total` have come: a client
        allowed `count` is seen reaching it by the event itself, not by luck within a time."""
        with self._changed:
            self._changed.wait_for(lambda: self.active >= count or len(self.requests) >= total, timeout=SAFETY)

    def wait_for_hits(self, path: str, count: int) -> bool:
        """Until `path` has been asked for `count` times (False if that never happened within SAFETY)."""
        with self._changed:
            return self._changed.wait_for(lambda: self.hits(path) >= count, timeout=SAFETY)

    def hits(self, path: str) -> int:
        return Counter(r.path for r in self.requests)[path]

    def statuses(self, path: str) -> list[int]:
        return [r.status for r in self.requests if r.path == path]

    def __enter__(self) -> PageServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def closed_port() -> int:
    """A loopback port nothing listens on (bound and released): a request to it is refused."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
