"""urllib3 connections that check the address they connect to, and a deadline that cuts slow downloads.

`SafeAdapter` is a requests adapter whose connections resolve the host themselves, check every resolved IP
with `netpolicy.check_address` and connect to a checked IP (never resolving twice, so a DNS answer that
changes between check and connect cannot pass). A refused address raises `netpolicy.Refused`, which
urllib3 does not retry.

`Deadline` bounds a whole page download: per-read timeouts alone let a server drip one byte just under the
timeout forever. Every socket used while a deadline is active is registered with it; when time is up a
watchdog shuts those sockets down, which wakes the blocked read at once. One watchdog thread serves every
deadline of the process (`_Watchdog`): a `threading.Timer` per download started and ended a thread per page
(62 us of CPU a download against 1.8 us now; issue 36, audit_cpu_share).
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
import socket
import threading
import time
from typing import Any

from requests.adapters import HTTPAdapter
from urllib3 import connection as u3conn
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import ConnectTimeoutError, NameResolutionError, NewConnectionError
from urllib3.util.connection import create_connection

from pipeline.citations.netpolicy import AllowList, Refused, check_address

_current = threading.local()  # the Deadline of the download running in this thread


class _Watchdog:
    """One daemon thread that expires every due deadline: a heap of (due time, order, deadline), the thread
    asleep until the earliest is due or a new, earlier one is added. A deadline that ended is marked done
    and dropped when it comes up, so ending one costs no wake-up."""

    def __init__(self) -> None:
        self._due: list[tuple[float, int, Deadline]] = []
        self._order = itertools.count()  # ties on the due time never compare two deadlines
        self._wake = threading.Condition(threading.Lock())
        self._thread: threading.Thread | None = None

    def add(self, deadline: Deadline, seconds: float) -> None:
        due = time.monotonic() + seconds
        with self._wake:
            heapq.heappush(self._due, (due, next(self._order), deadline))
            if self._thread is None or not self._thread.is_alive():  # the first deadline, or after a fork
                self._thread = threading.Thread(target=self._run, name="download-deadlines", daemon=True)
                self._thread.start()
            elif self._due[0][2] is deadline:  # earlier than what the thread sleeps towards
                self._wake.notify()

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._due or self._due[0][0] > time.monotonic():
                    self._wake.wait(self._due[0][0] - time.monotonic() if self._due else None)
                _, _, deadline = heapq.heappop(self._due)
            if not deadline.done:
                deadline._expire()  # outside the heap's lock: shutting sockets down may take a moment


_WATCHDOG = _Watchdog()


class Deadline:
    """`with Deadline(seconds) as deadline: ...`; `deadline.expired` tells whether it cut the download."""

    def __init__(self, seconds: float) -> None:
        self.expired = False
        self.done = False  # the download ended: its sockets are no longer this deadline's to shut
        self._seconds = seconds
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()

    def __enter__(self) -> Deadline:
        _current.deadline = self
        _WATCHDOG.add(self, self._seconds)
        return self

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self.done = True
            self._sockets.clear()  # the heap keeps the deadline until it is due: not its sockets
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
            if self.done:  # ended while the watchdog was on its way: as a cancelled Timer, nothing happens
                return
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
