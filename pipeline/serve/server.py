"""The HTTP server of `serve`: the exam's site from its output folder, on 127.0.0.1 only.

- pages (`*.html`) go out with the live-reload script injected (pipeline/serve/inject.py), other files
  as they are; everything with `Cache-Control: no-store`, so a reload shows the new build;
- `/__serve/events`: a server-sent event stream, `reload` after a successful build and `problems` after a
  failed one (the banner); `?since=N` catches up a page loaded before build N;
- `/__serve/status`: the last build's outcome as JSON, read by the script when it (re)connects;
- `/__serve/study-guide.pdf`: the guide, built when asked for (it takes the longest), then sent;
- the script and its style.

Files are read from `OUT/<exam>/site/` at each request, so each one sees the generation that is current.
"""

from __future__ import annotations

import contextlib
import html
import json
import threading
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from pipeline.paths import TEMPLATES
from pipeline.serve import inject
from pipeline.serve.session import GUIDE, Session

ASSETS = TEMPLATES / "serve"
GUIDE_PATH = "/__serve/study-guide.pdf"
KEEPALIVE = 15.0  # seconds between comments on an idle event stream, so proxies and browsers keep it open


class Handler(SimpleHTTPRequestHandler):
    session: Session  # set on the subclass made per server

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, directory=str(self.session.site), **kwargs)

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base class's name
        pass  # the terminal is for build problems, not for every request

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def do_GET(self) -> None:  # noqa: N802 - the base class's name
        path = urlsplit(self.path).path
        routes = {"/__serve/events": self._events, "/__serve/status": self._status, GUIDE_PATH: self._guide,
                  inject.SCRIPT: lambda: self._asset("livereload.js", "text/javascript"),
                  inject.STYLE: lambda: self._asset("livereload.css", "text/css")}
        if path in routes:
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
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
        seen = (int(since) if since.isdigit() else 0, True, 0)
        while not status.stopping:
            now = status.wait(seen, KEEPALIVE)
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
        problems = self.session.build(GUIDE, announce=False)
        if problems or not self.session.guide_file.is_file():
            page = inject.inject(inject.placeholder("The study guide could not be built"), self.session.status.build)
            body = page.replace("</main>", "<pre>" + html.escape("\n".join(problems)) + "</pre></main>")
            self._send(HTTPStatus.INTERNAL_SERVER_ERROR, "text/html; charset=utf-8", body.encode())
            return
        self._send(HTTPStatus.OK, "application/pdf", self.session.guide_file.read_bytes())


class Server(ThreadingHTTPServer):
    daemon_threads = True  # an open event stream never keeps the process alive


def make_server(session: Session, port: int) -> Server:
    """Bound to 127.0.0.1:`port` (0: a free one); OSError when the port is taken."""
    handler = type("SessionHandler", (Handler,), {"session": session})
    return Server(("127.0.0.1", port), handler)


def serve_in_thread(server: Server) -> threading.Thread:
    thread = threading.Thread(target=server.serve_forever, name="serve-http", daemon=True)
    thread.start()
    return thread
