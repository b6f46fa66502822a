"""urllib3 connections that check the address they connect to, and a deadline that cuts slow downloads.

`SafeAdapter` is a requests adapter whose connections resolve the host themselves, check every resolved IP
with `netpolicy.check_address` and connect to a checked IP (never resolving twice, so a DNS answer that
changes between check and connect cannot pass). A refused address raises `netpolicy.Refused`, which
urllib3 does not retry.

`Deadline` bounds a whole page download: per-read timeouts alone let a server drip one byte just under the
timeout forever. Every socket used while a deadline is active is registered with it; when time is up a
timer shuts those sockets down, which wakes the blocked read at once.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from typing import Any

from requests.adapters import HTTPAdapter
from urllib3 import connection as u3conn
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import ConnectTimeoutError, NameResolutionError, NewConnectionError
from urllib3.util.connection import create_connection

from pipeline.citations.netpolicy import AllowList, Refused, check_address

_current = threading.local()  # the Deadline of the download running in this thread


class Deadline:
    """`with Deadline(seconds) as deadline: ...`; `deadline.expired` tells whether it cut the download."""

    def __init__(self, seconds: float) -> None:
        self.expired = False
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True

    def __enter__(self) -> Deadline:
        _current.deadline = self
        self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._timer.cancel()
        _current.deadline = None

    def register(self, sock: socket.socket | None) -> None:
        if sock is None:
            return
        with self._lock:
            self._sockets.append(sock)
            expired = self.expired
        if expired:
            _shut(sock)

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            sockets = list(self._sockets)
        for sock in sockets:
            _shut(sock)


def _shut(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)


def _register(sock: socket.socket | None) -> None:
    deadline = getattr(_current, "deadline", None)
    if deadline is not None:
        if deadline.expired:
            raise Refused("the download's time limit is over")
        deadline.register(sock)


class _Checked:
    """Mixin for urllib3's connections: resolve, check every address, connect to a checked one."""

    allow: AllowList = AllowList()

    def _new_conn(self) -> socket.socket:
        _register(None)
        try:
            infos = socket.getaddrinfo(self._dns_host, self.port, 0, socket.SOCK_STREAM)
        except socket.gaierror as exc:
            raise NameResolutionError(self.host, self, exc) from exc
        refusal, error = None, None
        for *_, address in infos:
            ip = address[0]
            try:
                check_address(self.host, self.port, ip, self.allow)
            except Refused as exc:
                refusal = refusal or exc
                continue
            try:
                sock = create_connection((ip, self.port), self.timeout, self.source_address, self.socket_options)
            except TimeoutError as exc:
                raise ConnectTimeoutError(self, f"Connection to {self.host} timed out. (connect timeout={self.timeout})") from exc
            except OSError as exc:
                error = exc
                continue
            _register(sock)
            return sock
        if error is not None:
            raise NewConnectionError(self, f"Failed to establish a new connection: {error}") from error
        raise refusal or Refused(f"{self.host} has no address")

    def request(self, *args: Any, **kwargs: Any) -> Any:
        _register(self.sock)  # a kept-alive connection: its socket joins this download's deadline
        return super().request(*args, **kwargs)


class SafeAdapter(HTTPAdapter):
    """An HTTPAdapter whose connections refuse non-public addresses unless `allow` lists them."""

    def __init__(self, allow: AllowList, **kwargs: Any) -> None:
        self.allow = allow
        super().__init__(**kwargs)

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        http = type("CheckedHTTPConnection", (_Checked, u3conn.HTTPConnection), {"allow": self.allow})
        https = type("CheckedHTTPSConnection", (_Checked, u3conn.HTTPSConnection), {"allow": self.allow})
        self.poolmanager.pool_classes_by_scheme = {
            "http": type("CheckedHTTPPool", (HTTPConnectionPool,), {"ConnectionCls": http}),
            "https": type("CheckedHTTPSPool", (HTTPSConnectionPool,), {"ConnectionCls": https}),
        }
