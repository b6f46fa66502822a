"""`serve` as a target: any page in the author's browser can send it requests and any program on the machine
can connect (issue 37, item 4). The real command in a subprocess, real sockets.

- DNS rebinding: a page of another site whose name now resolves to 127.0.0.1 sends its own `Host:`; only
  `127.0.0.1:PORT` and `localhost:PORT` are answered (421 otherwise);
- exhaustion: under `ulimit -n 1024`, 2,000 connections (half live-reload streams, half idle) and serve still
  answers a new request;
- odd requests (a NUL, a lone surrogate, a 60,000-character path, `?since=` values that are no build
  number) get a 400 or 404 or an ordinary answer, never a traceback.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import resource
import socket
import urllib.request

import pytest

from tests.kit.serve import URL, Serving, make_project

FILES = 1024  # the server's RLIMIT_NOFILE, as `ulimit -n 1024`
CONNECTIONS = 2000


def limited_files() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (FILES, FILES))


@pytest.fixture
def served(tmp_path):
    serving = Serving(make_project(tmp_path), preexec_fn=limited_files)
    serving.url = serving.wait_for(URL)[1]
    serving.port = int(serving.url.rsplit(":", 1)[1].rstrip("/"))
    yield serving
    if serving.process.poll() is None:
        serving.process.kill()
        serving.process.wait(10)


def get(port: int, path: str, host: str | None) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.putrequest("GET", path, skip_host=True, skip_accept_encoding=True)
        if host is not None:
            connection.putheader("Host", host)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.read(2000) if response.status != 200 or "events" not in path else response.read(10)
    finally:
        connection.close()


def raw(port: int, request: bytes) -> bytes:
    """The first bytes of the answer to a request written as it is (http.client would refuse it)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        return sock.recv(200)


def test_only_its_own_host_names_are_answered(served):
    port = served.port
    assert get(port, "/", f"127.0.0.1:{port}")[0] == 200
    assert get(port, "/", f"localhost:{port}")[0] == 200
    assert get(port, "/", f"LOCALHOST:{port}")[0] == 200
    for host in ("attacker.example", f"attacker.example:{port}", f"127.0.0.1:{port + 1}", "127.0.0.1", f"127.0.0.2:{port}", f"[::1]:{port}", ""):
        status, body = get(port, "/", host)
        assert status == 421, (host, status)
        assert b"<h1>" not in body or b"exam" not in body.lower()
    assert get(port, "/__serve/status", "attacker.example")[0] == 421
    assert get(port, "/__serve/events", "attacker.example")[0] == 421
    assert raw(port, b"GET / HTTP/1.0\r\n\r\n").startswith(b"HTTP/1.0 421")  # no Host at all
    assert raw(port, f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nHost: attacker.example\r\n\r\n".encode()).startswith(b"HTTP/1.0 421")


def test_odd_paths_and_queries_are_answered_without_a_traceback(served):
    port, host = served.port, f"127.0.0.1:{served.port}"
    answers = {
        "NUL": raw(port, f"GET /%00 HTTP/1.1\r\nHost: {host}\r\n\r\n".encode()),
        "NUL in a page name": raw(port, f"GET /index%00.html HTTP/1.1\r\nHost: {host}\r\n\r\n".encode()),
        "lone surrogate": raw(port, f"GET /%ED%A0%80.html HTTP/1.1\r\nHost: {host}\r\n\r\n".encode()),
        "60,000 characters": raw(port, f"GET /{'a' * 60_000} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode()),
        "60,000 characters of a page": raw(port, f"GET /{'a' * 60_000}.html HTTP/1.1\r\nHost: {host}\r\n\r\n".encode()),
        "a control character": raw(port, f"GET /%1b%5b2J HTTP/1.1\r\nHost: {host}\r\n\r\n".encode()),
    }
    assert {name: answer[:12] for name, answer in answers.items()} == {name: b"HTTP/1.0 400" for name in answers}
    assert raw(port, f"GET /no-such-page.html HTTP/1.1\r\nHost: {host}\r\n\r\n".encode()).startswith(b"HTTP/1.0 404")
    sinces = ["%C2%B2", "-1", "1e9", "", "0x10", "9" * 40, "%00", "%ED%A0%80", "1&since=2"]  # each read as build 0
    for since in sinces:
        status, first = get(port, f"/__serve/events?since={since}", host)
        assert (status, first) == (200, b"retry: 100"), since
    assert get(port, f"/__serve/events?since={'9' * 4000}", host)[0] == 400  # a query past MAX_PATH: no page has one
    assert served.process.poll() is None
    served.stop()
    output = "\n".join(served.lines)
    assert "Traceback" not in output and "a request failed" not in output, output


def test_two_thousand_connections_under_ulimit_1024_leave_a_new_request_answered(served):
    port, host = served.port, f"127.0.0.1:{served.port}"
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, CONNECTIONS + 1000), hard))  # this process holds the 2,000 client ends
    held: list[socket.socket] = []
    try:
        for i in range(CONNECTIONS):
            sock = socket.create_connection(("127.0.0.1", port), timeout=30)
            if i % 2:  # a live-reload client, left open
                sock.sendall(f"GET /__serve/events HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
            held.append(sock)  # the others: idle, never a byte sent
        assert len(held) == CONNECTIONS
        with urllib.request.urlopen(served.url, timeout=10) as response:  # a timeout on the request, not a measured time
            assert response.status == 200 and b"</html>" in response.read()
        with urllib.request.urlopen(served.url + "__serve/status", timeout=10) as response:
            assert response.status == 200
        files = len(os.listdir(f"/proc/{served.process.pid}/fd"))
        assert files < FILES // 2, files  # the caps hold the server far below its limit
        assert served.process.poll() is None
    finally:
        for sock in held:
            with contextlib.suppress(OSError):
                sock.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    served.stop()
    assert "Traceback" not in "\n".join(served.lines)
