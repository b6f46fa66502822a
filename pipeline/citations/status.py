"""The statuses a citation can have after an audit (see `verdict` for what each means).

Kept apart from the fetching code so that `validate` can name them without importing the network stack.
"""

from __future__ import annotations

from enum import StrEnum


class Status(StrEnum):
    FOUND = "found"
    DRIFTED = "drifted"
    MISSING = "missing"
    DEAD = "dead"
    BLOCKED = "blocked"
    UNREACHABLE = "unreachable"
    UNSUPPORTED = "unsupported"
    ARCHIVED = "archived"  # gone, missing or unreachable live, but on an archived snapshot (lock: archive_url)
    MOVED = "moved"  # found after a permanent redirect (301/308); the lock's `moved_to` says where


CONTENT_VERDICTS = frozenset({Status.FOUND, Status.DRIFTED, Status.MISSING})
TRANSIENT = frozenset({Status.BLOCKED, Status.UNREACHABLE})  # may well answer tomorrow

# Warnings ride beside a status (DESIGN.md): the quote stands, but something needs an author's eye.
CHANGED_SINCE_REVIEW = "changed-since-review"  # the passage around a found quote changed after the review
