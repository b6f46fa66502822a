"""A variant's seed: from the question's id, its `variants.seed` and the variant's number, never the clock.

The same question draws the same variants on every machine and run; changing the id, the seed text or
the number draws others. SHA-256 is used as a mixing function (not for identity): any two inputs give
unrelated seeds, which Python's own `hash` (salted per process) cannot promise.
"""

from __future__ import annotations

import hashlib

SEED_RULE = 1  # bump when the rule changes: every lock entry made under the old rule is then stale


def seed_of(question_id: str, salt: str, index: int) -> int:
    """A 31-bit seed (short enough to read in a message) for variant `index` (1-based) of the question."""
    digest = hashlib.sha256(f"{SEED_RULE}\x00{question_id}\x00{salt}\x00{index}".encode()).digest()
    return int.from_bytes(digest[:4], "big") >> 1
