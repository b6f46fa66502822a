"""The statuses a citation can have after an audit (see `verdict` for what each means).

The vocabulary itself is a contract and lives in schema/citation_status.py; this module adds what the
audit needs to know about them. Kept apart from the fetching code so that `validate` can name them
without importing the network stack.
"""

from __future__ import annotations

from schema.citation_status import LABELS, Status

TRANSIENT = frozenset({Status.BLOCKED, Status.UNREACHABLE})  # may well answer tomorrow

# Warnings ride beside a status (DESIGN.md): the quote stands, but something needs an author's eye.
CHANGED_SINCE_REVIEW = "changed-since-review"  # the passage around a found quote changed after the review

__all__ = ["CHANGED_SINCE_REVIEW", "LABELS", "TRANSIENT", "Status"]
