"""Fill-in answers: which written answers a grader accepts, and the one matching rule every output states.

The rule: case, whitespace and punctuation do not count ("Instead of padding." matches "instead of
padding"); every word and number must be there. Accepted answers are the gap's phrase and, when it
starts with an article, the phrase without it ("a handful of photos", "handful of photos").
"""

from __future__ import annotations

import re
import unicodedata

RULE = "case, spacing and punctuation are ignored"
_ARTICLE = re.compile(r"^(?:a|an|the)\s+", re.IGNORECASE)


def normalize(answer: str) -> str:
    """Lower case, punctuation dropped (hyphens become spaces), whitespace collapsed."""
    text = unicodedata.normalize("NFKC", answer).casefold().replace("-", " ")
    text = "".join(ch for ch in text if not unicodedata.category(ch).startswith("P"))
    return " ".join(text.split())


def accepted(phrase: str) -> tuple[str, ...]:
    """The phrase, and without a leading article; duplicates under the rule once."""
    variants = [phrase, _ARTICLE.sub("", phrase)]
    seen: dict[str, str] = {}
    for v in variants:
        seen.setdefault(normalize(v), v)
    return tuple(seen.values())


def accepts(answers: tuple[str, ...], given: str) -> bool:
    return normalize(given) in {normalize(a) for a in answers}
