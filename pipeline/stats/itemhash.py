"""A content hash of an item as learners answered it: its stem, options, key and type, nothing else.

Edits that do not change what a learner sees or how it is scored (the explanation, citations, tags,
difficulty, the file or line it sits on) keep the hash, so they do not make its statistics stale.
The hash only tells "the same item" from "an edited one"; ids never come from it. A varied question's pooled
record hashes its variants' hashes (`answered_hash`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json

from pipeline.stats.match import ItemKey, QuestionIndex

_NOT_ANSWERED = ("source_file", "source_line")


def item_hash(key: ItemKey) -> str:
    content = {k: v for k, v in dataclasses.asdict(key).items() if k not in _NOT_ANSWERED}
    text = json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def answered_hash(index: QuestionIndex, qid: str) -> str:
    """The hash a record of `qid` carries: a varied question's pooled record hashes every variant's (a changed
    variant, or a changed count, makes the pooled figures stale); any other item's is its own."""
    if qid not in index.variants:
        return item_hash(index.keys[qid])
    text = json.dumps([item_hash(index.keys[v]) for v in index.variants[qid]], separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
