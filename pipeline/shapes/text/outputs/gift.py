"""questions.gift: a short answer {=a =b} or an essay {}."""

from __future__ import annotations

from pipeline.render.lms.text import gift_escape
from pipeline.shapes.text import Text


def write(part: Text) -> tuple[str, list[str]]:
    """Accepted answers are plain text; `*` is a wildcard in Moodle's short answers, so it is escaped. No
    accepted answers: an essay (an empty answer block)."""
    return "", [f"={gift_escape(a.replace('*', chr(92) + '*'))}" for a in part.accepted]
