"""Moves: a cited page that answers through permanent redirects (301, 308) lives at a new address.

`RedirectLog` watches the fetcher's HTTP session (a `requests` response hook, so the client itself is
untouched) and records every redirect hop: which address answered which code, pointing where. After the
audit, a quote found at the end of a chain made only of 301s and 308s is `moved`, with the new address;
a chain with any temporary redirect (302, 303, 307) is not a move: the old address is still the right one
to cite. `audit --fix-moves` then rewrites the address in the sources (`pipeline.citations.fixmoves`).
"""

from __future__ import annotations

import threading
from dataclasses import replace

import requests

from pipeline.citations import address
from pipeline.citations.netpolicy import Refused
from pipeline.citations.status import Status
from pipeline.citations.verdict import CitationResult

PERMANENT = frozenset({301, 308})
MAX_HOPS = 30  # more than any redirect cap: a loop in the log cannot hold the walk


class RedirectLog:
    """Every redirect the session followed: address -> (code, next address)."""

    def __init__(self) -> None:
        self.hops: dict[str, tuple[int, str]] = {}
        self._lock = threading.Lock()

    def watch(self, session: requests.Session) -> RedirectLog:
        session.hooks.setdefault("response", []).append(self._record)
        return self

    def _record(self, response: requests.Response, *args: object, **kwargs: object) -> None:
        """A redirect hop, its target normalised as the client follows it; a refused target is no hop (the
        client does not follow it either, and the citation is `blocked`)."""
        if response.is_redirect and response.request is not None:
            try:
                target = address.canonical(response.headers.get("Location", ""), response.request.url or "")
            except Refused:
                return
            with self._lock:
                self.hops[_as_sent(response.request.url or "")] = (response.status_code, target)

    def moved_to(self, url: str) -> str | None:
        """The address at the end of `url`'s redirects when every hop is permanent, else None."""
        codes, at = [], url
        with self._lock:
            while self.hops and _as_sent(at) in self.hops and len(codes) < MAX_HOPS:  # no redirects: no re-quoting
                code, at = self.hops[_as_sent(at)]
                codes.append(code)
        return at if codes and set(codes) <= PERMANENT and at != url else None


def _as_sent(url: str) -> str:
    """The address as the session sends it (requests re-quotes it): the key of a hop."""
    try:
        return requests.Request("GET", url).prepare().url or url
    except requests.RequestException:
        return url


def with_moves(result: CitationResult, log: RedirectLog) -> CitationResult:
    """`moved` for a found quote whose page was reached through permanent redirects only."""
    if result.status is not Status.FOUND:
        return result
    target = log.moved_to(result.url)
    return replace(result, status=Status.MOVED, moved_to=target) if target else result
