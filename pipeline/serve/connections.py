"""How many connections `serve` holds, and for how long: a page's requests and its live-reload stream
must not let any other program on the machine exhaust the server's threads or file handles.

Every connection is admitted (so a new request is always answered) and counted as one of three kinds:
idle (waiting for a request), busy (answering one) or a live-reload stream. When a kind is over its
limit (MAX_IDLE, MAX_BUSY, MAX_STREAMS), the oldest of that kind is dropped: its socket is shut down,
which ends the read its thread is blocked in, and a stream's wait is woken (`dropped`). An idle
connection also ends on its own after IDLE_TIMEOUT seconds without a request. So 2,000 connections
opened and left idle, or 2,000 live-reload clients, hold at most MAX_IDLE + MAX_BUSY + MAX_STREAMS sockets
and threads, and the newest request is answered.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections import OrderedDict
from collections.abc import Callable

MAX_IDLE = 64  # connections waiting for a request: a browser opens about six per page
MAX_BUSY = 64  # requests being answered at once (a page and its assets, a few tabs)
MAX_STREAMS = 32  # live-reload pages open at once: far more tabs than an author keeps
IDLE_TIMEOUT = 10.0  # seconds a connection may wait for its request (or the next one) before it is closed

IDLE, BUSY, STREAM = "idle", "busy", "stream"


class Connections:
    """The open connections by kind, oldest first; safe to call from any thread."""

    def __init__(self, wake: Callable[[], None], max_idle: int = MAX_IDLE, max_busy: int = MAX_BUSY, max_streams: int = MAX_STREAMS) -> None:
        self._lock = threading.Lock()
        self._kinds: dict[str, OrderedDict[socket.socket, None]] = {IDLE: OrderedDict(), BUSY: OrderedDict(), STREAM: OrderedDict()}
        self._limits = {IDLE: max_idle, BUSY: max_busy, STREAM: max_streams}
        self._dropped: set[socket.socket] = set()
        self._wake = wake  # wakes the streams' waits, so a dropped one notices at once

    def set(self, conn: socket.socket, kind: str) -> None:
        """`conn` is now of `kind` (newest of it); the oldest of that kind dropped when over its limit."""
        with self._lock:
            for kinds in self._kinds.values():
                kinds.pop(conn, None)
            self._kinds[kind][conn] = None
            over = []
            while len(self._kinds[kind]) > self._limits[kind]:
                oldest, _ = self._kinds[kind].popitem(last=False)
                self._dropped.add(oldest)
                over.append(oldest)
        for old in over:
            _shut(old)
        if over and kind == STREAM:
            self._wake()

    def dropped(self, conn: socket.socket) -> bool:
        with self._lock:
            return conn in self._dropped

    def forget(self, conn: socket.socket) -> None:
        with self._lock:
            for kinds in self._kinds.values():
                kinds.pop(conn, None)
            self._dropped.discard(conn)

    def counts(self) -> dict[str, int]:
        with self._lock:
            return {kind: len(conns) for kind, conns in self._kinds.items()}


def _shut(conn: socket.socket) -> None:
    with contextlib.suppress(OSError):  # already closed by its own thread
        conn.shutdown(socket.SHUT_RDWR)
