"""A question's content hash: what tells a learner's saved progress that the question changed since it was reviewed.

The bank carries it (`content_hash`) and the study site's progress keeps it beside each card, so an import
into a newer build keeps a card whose question is the same and starts over one whose question changed.

It hashes what a learner sees and is graded on (the type, stem, prompt, the parts with their display order
and keys, the answer and how it is scored) and leaves out what can change without changing the
question: the explanation, citations, difficulty, tags, numbering, whether it is held out for mocks and the place in the sources. It is
written over every other field of the question view, so a field added later counts unless it is named here.
It is not an id (ids come from the sources): two questions may well share a hash.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json

from pipeline.view.model import QuestionView

NOT_CONTENT = frozenset({
    "explanation_md", "citations", "difficulty", "tags", "key_points", "number", "category_path",
    "source_file", "source_line", "objective", "section", "generated", "mock_only",
    "variants", "template",  # a varied question hashes as its variant 1 shows; each variant has its own hash
})
DIGITS = 16  # 64 bits: a changed question is told from the old one with certainty for any real bank


def content_hash(q: QuestionView) -> str:
    """16 hex digits of SHA-256 over the question's canonical JSON, without the NOT_CONTENT fields."""
    fields = {f.name: getattr(q, f.name) for f in dataclasses.fields(q) if f.name not in NOT_CONTENT}
    text = json.dumps(fields, sort_keys=True, ensure_ascii=False, default=_plain)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:DIGITS]


def _plain(value: object) -> object:
    """Parts (with their shape's name) and nested records as dicts; anything else as text."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        # a field derived from what is hashed already (a numeric part's `ratio`, read from its stem and unit)
        # says `metadata={"content": False}`: leaving it out keeps the hashes learners' progress holds
        derived = {f.name for f in dataclasses.fields(value) if not f.metadata.get("content", True)}
        return {"shape": getattr(value, "shape", None), **{k: v for k, v in dataclasses.asdict(value).items() if k not in derived}}
    return str(value)
