"""Offline is a state of the machine, not a finding about the sources.

When not one cited page answered and every fetch failed before any server spoke (the host name did not
resolve, no connection was made), the audit learned nothing about any quote: there is nothing for an author
to fix, and rewriting the lock or listing what depends on each "unreachable" quote would only bury the one
fact that matters. `audit` then says so in one line and exits 2 (an environment problem), as `check-quote`
does for the same failure. A page that answered with anything, even an error, means the network works.
"""

from __future__ import annotations

from collections import Counter
from urllib.parse import urlsplit

from pipeline.citations.audit import AuditResult
from pipeline.citations.status import Status

# The sentences `http.describe` gives for a fault before any server answered.
NO_ANSWER = ("the host name does not resolve (DNS)", "the connection was refused", "no connection")


def _before_any_answer(detail: str, http_status: int | None) -> bool:
    return http_status is None and detail.startswith(NO_ANSWER)


def no_network(result: AuditResult) -> str | None:
    """The one line to print when the audit reached no server at all, else None."""
    citations = [r for _, r in result.citations]
    if not citations or not all(r.status is Status.UNREACHABLE and _before_any_answer(r.detail, r.http_status) for r in citations):
        return None
    pages = {r.url for r in citations}
    hosts = {urlsplit(url).hostname or url for url in pages}
    why = Counter(r.detail for r in citations).most_common(1)[0][0]
    return (f"no network: none of the {len(pages)} page(s) on {len(hosts)} host(s) could be reached ({why}); nothing was checked "
            "and the lock was left as it was: run the audit again where the pages can be reached")
