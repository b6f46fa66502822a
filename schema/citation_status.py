"""The one vocabulary of citation statuses, used by the lock, the audit report, the bank schema (an enum),
the guide, the deck and the site.

A status says what the last check of a quote against its page found; `unchecked` means never checked.
Warnings such as `changed-since-review` ride beside a status, they are not statuses.
"""

from __future__ import annotations

from enum import StrEnum


class Status(StrEnum):
    UNCHECKED = "unchecked"  # never checked: no entry in the lock, or only failed fetches so far
    FOUND = "found"  # every word of the quote stands on the page, in order
    DRIFTED = "drifted"  # not on the page, but a close passage is
    MISSING = "missing"  # not on the page, nothing close
    DEAD = "dead"  # the page answers 404 or 410
    BLOCKED = "blocked"  # 401, 403, still 429 after retries, or an address the audit refuses
    UNREACHABLE = "unreachable"  # DNS, refused, timeout, TLS, server errors, a redirect loop
    UNSUPPORTED = "unsupported"  # not HTML, plain text or PDF, or over the size cap
    ARCHIVED = "archived"  # gone or changed live, but found in an archived copy of the page
    MOVED = "moved"  # a permanent redirect to a page that holds the quote


# What each status means to a reader, in a few words: the guide, the deck and the site print these.
LABELS: dict[Status, str] = {
    Status.UNCHECKED: "not yet checked",
    Status.FOUND: "found on the page",
    Status.DRIFTED: "wording changed on the page",
    Status.MISSING: "not found on the page",
    Status.DEAD: "page gone",
    Status.BLOCKED: "site refused the check",
    Status.UNREACHABLE: "page unreachable",
    Status.UNSUPPORTED: "page could not be read",
    Status.ARCHIVED: "found in an archived copy",
    Status.MOVED: "found at a new address",
}
