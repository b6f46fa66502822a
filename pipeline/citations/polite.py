"""Politeness towards each host: at most `per_host` requests at once, starts at least `interval` apart.

Many quotes cite a few documentation sites; without this, a thread pool would hit one site with every
request at once. Each request reserves its start time under a lock, so starts are spaced exactly even
when several threads ask together. (Retries made inside urllib3 are spaced by its backoff instead.)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from urllib.parse import urlsplit


def host_of(url: str) -> str:
    """The host a request goes to; ports do not make a different site."""
    return (urlsplit(url).hostname or "").lower()


@dataclass
class _Host:
    slots: threading.Semaphore
    lock: threading.Lock = field(default_factory=threading.Lock)
    next_start: float = 0.0


class HostGate:
    def __init__(self, per_host: int, interval: float) -> None:
        self.per_host = per_host
        self.interval = interval
        self._hosts: dict[str, _Host] = {}
        self._lock = threading.Lock()

    def _host(self, url: str) -> _Host:
        with self._lock:
            return self._hosts.setdefault(host_of(url), _Host(threading.Semaphore(self.per_host)))

    @contextmanager
    def slot(self, url: str) -> Iterator[None]:
        """Wait for a free slot and this host's next start time; hold the slot for the request."""
        host = self._host(url)
        with host.slots:
            with host.lock:
                now = time.monotonic()
                start = max(now, host.next_start)
                host.next_start = start + self.interval
            time.sleep(max(start - now, 0.0))
            yield
