"""A content hash of an item as learners answered it: its stem, options, key and type, nothing else.

Edits that do not change what a learner sees or how it is scored (the explanation, citations, tags,
difficulty, the file or line it sits on) keep the hash, so they do not make its statistics stale.
The hash only tells "the same item" from "an edited one"; ids never come from it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json

from pipeline.stats.match import ItemKey

_NOT_ANSWERED = ("source_file", "source_line")


def item_hash(key: ItemKey) -> str:
    content = {k: v for k, v in dataclasses.asdict(key).items() if k not in _NOT_ANSWERED}
    text = json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
