"""Fill-in answers: which written answers a generated gap accepts. How a typed answer is compared with them
is the one rule of pipeline/shapes/grading.py (`RULE`, `normalise`), which every output states.

Accepted answers are the gap's phrase and, when it starts with an article, the phrase without it
("a handful of photos", "handful of photos").
"""

from __future__ import annotations

import re

from pipeline.shapes.grading import RULE_TEXT as RULE
from pipeline.shapes.grading import normalise

_ARTICLE = re.compile(r"^(?:a|an|the)\s+", re.IGNORECASE)
__all__ = ["RULE", "accepted", "accepts", "normalise"]


def accepted(phrase: str) -> tuple[str, ...]:
    """The phrase, and without a leading article; duplicates under the rule once."""
    variants = [phrase, _ARTICLE.sub("", phrase)]
    seen: dict[str, str] = {}
    for v in variants:
        seen.setdefault(normalise(v), v)
    return tuple(seen.values())


def accepts(answers: tuple[str, ...], given: str) -> bool:
    return normalise(given) in {normalise(a) for a in answers}
