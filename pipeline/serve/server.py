"""The HTTP server of `serve`: the exam's site from its output folder, on 127.0.0.1 only.

- pages (`*.html`) go out with the live-reload script injected (pipeline/serve/inject.py), other files
  as they are; everything with `Cache-Control: no-store`, so a reload shows the new build;
- `/__serve/events`: a server-sent event stream, `reload` after a successful build and `problems` after a
  failed one (the banner); `?since=N` catches up a page loaded before build N;
- `/__serve/status`: the last build's outcome as JSON, read by the script when it (re)connects;
- `/__serve/study-guide.pdf`: the guide, built when asked for (it takes the longest), then sent;
- the script and its style.

Files are read from `OUT/<exam>/site/` at each request, so each one sees the generation that is current.

Any page in the author's browser can send requests to 127.0.0.1, and any program on the machine can
connect: only `Host: 127.0.0.1:PORT` and `localhost:PORT` are answered (421 otherwise: a page of another
site whose name was rebound to 127.0.0.1 is refused), connections and live-reload streams are capped, the
oldest idle one dropped first (pipeline/serve/connections.py), and an odd path or query (a NUL, a lone
surrogate, a path of 60,000 characters, `?since=²`) is a 400 or 404, never a traceback.
"""

from __future__ import annotations

import contextlib
import html
import json
import re
import sys
import threading
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from pipeline.paths import TEMPLATES
from pipeline.serve import inject
from pipeline.serve.connections import BUSY, IDLE, IDLE_TIMEOUT, STREAM, Connections
from pipeline.serve.session import GUIDE_OUTPUTS, Session
from pipeline.text.terminal import for_terminal

ASSETS = TEMPLATES / "serve"
GUIDE_PATH = "/__serve/study-guide.pdf"
KEEPALIVE = 15.0  # seconds between comments on an idle event stream, so proxies and browsers keep it open
GUIDES_AT_ONCE = 4  # requests waiting for the study guide's build; more are told to reload
MAX_PATH = 2048  # characters of a request's path and query: the site's longest is under 200
_BUILD_NUMBER = re.compile(r"[0-9]{1,15}")  # ASCII digits only: "²".isdigit() is True, int("²") fails
_ODD = re.compile(r"[\x00-\x1f\x7f\ud800-\udfff]")  # controls and lone surrogates: no file is named so


class Handler(SimpleHTTPRequestHandler):
    session: Session  # set on the subclass made per server
    server: Server
    timeout = IDLE_TIMEOUT  # on every read and write of the socket: a silent client is dropped

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, directory=str(self.session.site), **kwargs)

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base class's name
        pass  # the terminal is for build problems, not for every request

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def handle_one_request(self) -> None:
        self.server.connections.set(self.connection, IDLE)  # waiting for the request line: may be dropped
        super().handle_one_request()

    def parse_request(self) -> bool:
        """The base class's parsing, then the Host check: 421 for any name but 127.0.0.1:PORT or localhost:PORT."""
        if not super().parse_request():
            return False
        self.server.connections.set(self.connection, BUSY)
        hosts = self.headers.get_all("Host") or []
        port = self.server.server_address[1]
        if len(hosts) != 1 or hosts[0].strip().lower() not in (f"127.0.0.1:{port}", f"localhost:{port}"):
            self.close_connection = True
            self.send_error(HTTPStatus.MISDIRECTED_REQUEST, f"serve answers only Host: 127.0.0.1:{port} or localhost:{port}")
            return False
        return True

    def _odd_request(self) -> bool:
        """Answer 400 for a path the site cannot hold (too long, a control character, a lone surrogate)."""
        if len(self.path) <= MAX_PATH and not _ODD.search(unquote(urlsplit(self.path).path, errors="surrogatepass")):
            return False
        self.send_error(HTTPStatus.BAD_REQUEST, "no page of the site has such a path")
        return True

    def do_HEAD(self) -> None:  # noqa: N802 - the base class's name
        if not self._odd_request():
            super().do_HEAD()

    def do_GET(self) -> None:  # noqa: N802 - the base class's name
        if self._odd_request():
            return
        path = urlsplit(self.path).path
        routes = {"/__serve/events": self._events, "/__serve/status": self._status, GUIDE_PATH: self._guide,
                  inject.SCRIPT: lambda: self._asset("livereload.js", "text/javascript"),
                  inject.STYLE: lambda: self._asset("livereload.css", "text/css")}
        if path in routes:
            with contextlib.suppress(OSError):  # the page went away, or was dropped (a cap, a timeout)
                routes[path]()
            return
        if not self.session.site.is_dir() and path in ("/", "/index.html"):  # no good build yet: the banner says why
            title = self.session.status.title or "Building..."
            self._send(HTTPStatus.OK, "text/html; charset=utf-8", inject.inject(inject.placeholder(title), 0).encode())
            return
        page = self._page_file(path)
        if page is None:
            super().do_GET()
            return
        self._send(HTTPStatus.OK, "text/html; charset=utf-8", inject.inject(page.read_text(encoding="utf-8"), self.session.status.build).encode())

    def _page_file(self, path: str) -> Path | None:
        """The HTML file a request names (`/` is index.html); None for anything else, left to the base class."""
        local = Path(self.translate_path(path))  # the base class's safe mapping into the site folder
        if local.is_dir():
            local = local / "index.html"
        return local if local.suffix == ".html" and local.is_file() else None

    def _send(self, status: HTTPStatus, kind: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _asset(self, name: str, kind: str) -> None:
        self._send(HTTPStatus.OK, f"{kind}; charset=utf-8", (ASSETS / name).read_bytes())

    def _status(self) -> None:
        self._send(HTTPStatus.OK, "application/json", json.dumps(self.session.status.as_json()).encode())

    def _events(self) -> None:
        status = self.session.status
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        self.wfile.write(b"retry: 1000\n\n")
        self.wfile.flush()
        since = parse_qs(urlsplit(self.path).query).get("since", ["0"])[0]
        seen = (int(since) if _BUILD_NUMBER.fullmatch(since) else 0, True, 0)
        connections, conn = self.server.connections, self.connection
        connections.set(conn, STREAM)
        while not status.stopping and not connections.dropped(conn):
            now = status.wait(seen, KEEPALIVE, lambda: connections.dropped(conn))
            if now == seen:
                self.wfile.write(b": still here\n\n")
            elif now[1] and now[0] > seen[0]:
                self._event("reload", {"build": now[0]})
            elif not now[1]:
                self._event("problems", status.as_json())
            seen = now
            self.wfile.flush()

    def _event(self, name: str, data: dict) -> None:
        self.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())

    def _guide(self) -> None:
        """Built while the request waits: at most GUIDES_AT_ONCE requests wait (each holds a thread and a socket)."""
        if not self.server.guides.acquire(blocking=False):
            self._send(HTTPStatus.SERVICE_UNAVAILABLE, "text/plain; charset=utf-8", b"The study guide is being built; reload in a moment.\n")
            return
        try:
            self._guide_built()
        finally:
            self.server.guides.release()

    def _guide_built(self) -> None:
        problems = self.session.build(GUIDE_OUTPUTS, announce=False)
        if problems or not self.session.guide_file.is_file():
            page = inject.inject(inject.placeholder("The study guide could not be built"), self.session.status.build)
            body = page.replace("</main>", "<pre>" + html.escape("\n".join(problems)) + "</pre></main>")
            self._send(HTTPStatus.INTERNAL_SERVER_ERROR, "text/html; charset=utf-8", body.encode())
            return
        self._send(HTTPStatus.OK, "application/pdf", self.session.guide_file.read_bytes())


class Server(ThreadingHTTPServer):
    daemon_threads = True  # an open event stream never keeps the process alive
    request_queue_size = 128  # connections the kernel holds until accepted: a burst is accepted, then capped

    def __init__(self, address: tuple[str, int], handler: type[Handler], connections: Connections) -> None:
        super().__init__(address, handler)
        self.connections = connections
        self.guides = threading.Semaphore(GUIDES_AT_ONCE)

    def process_request(self, request, client_address) -> None:
        self.connections.set(request, IDLE)  # counted from the moment it is accepted: the oldest idle one goes
        super().process_request(request, client_address)

    def shutdown_request(self, request) -> None:
        self.connections.forget(request)
        super().shutdown_request(request)

    def handle_error(self, request, client_address) -> None:
        """One line, not a traceback: a request that fails (a bug) must not flood the author's terminal."""
        kind, exc, _ = sys.exc_info()
        if isinstance(exc, OSError):
            return  # the page went away, or was dropped: nothing to say
        print(for_terminal(f"serve: a request failed: {kind.__name__ if kind else 'error'}: {exc}"), file=sys.stderr)


def make_server(session: Session, port: int) -> Server:
    """Bound to 127.0.0.1:`port` (0: a free one); OSError when the port is taken."""
    handler = type("SessionHandler", (Handler,), {"session": session})
    return Server(("127.0.0.1", port), handler, Connections(session.status.poke))


def serve_in_thread(server: Server) -> threading.Thread:
    thread = threading.Thread(target=server.serve_forever, name="serve-http", daemon=True)
    thread.start()
    return thread
