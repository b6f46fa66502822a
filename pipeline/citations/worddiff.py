"""A word-level diff between a quote and the page's closest passage, for drifted quotes.

Shown the way `git diff --word-diff` shows it: `[-quote's word-]{+page's word+}`, so it reads the same
in a terminal, a CI log and a Markdown comment.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from pipeline.citations.normalize import fold, visible_form

EDGE_PUNCTUATION = re.compile(r"^[^\w]+|[^\w]+$")
Segment = tuple[str, str]  # (op, text): op is "=", "-" (only in the quote) or "+" (only on the page)


def _key(word: str) -> str:
    """A word as compared: typography, case and surrounding punctuation aside, as in matching."""
    return EDGE_PUNCTUATION.sub("", fold(visible_form(word)))


def word_diff(quote: str, passage: str) -> list[Segment]:
    old, new = quote.split(), passage.split()
    segments: list[Segment] = []
    matcher = SequenceMatcher(a=[_key(w) for w in old], b=[_key(w) for w in new], autojunk=False)
    for op, a1, a2, b1, b2 in matcher.get_opcodes():
        if op == "equal":
            segments.append(("=", " ".join(new[b1:b2])))
            continue
        if a2 > a1:
            segments.append(("-", " ".join(old[a1:a2])))
        if b2 > b1:
            segments.append(("+", " ".join(new[b1:b2])))
    return segments


def with_markers(segments: list[Segment]) -> str:
    marks = {"=": "{}", "-": "[-{}-]", "+": "{{+{}+}}"}
    return " ".join(marks[op].format(text) for op, text in segments)


def rich_markup(segments: list[Segment]) -> str:
    from rich.markup import escape

    from pipeline.text.terminal import for_terminal

    styles = {"=": "{}", "-": "[red strike]{}[/]", "+": "[green]{}[/]"}
    return " ".join(styles[op].format(escape(for_terminal(text))) for op, text in segments)
