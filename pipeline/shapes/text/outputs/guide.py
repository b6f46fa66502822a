"""The guide's answer key: the accepted answers, or the model answer of a self-graded text."""

from __future__ import annotations

from pipeline.shapes.text import Text
from pipeline.text.plaintext import to_plain


def write(part: Text) -> str:
    # the whole model answer: the key is where a reader checks theirs
    return " / ".join(part.accepted) if part.auto else to_plain(part.model_answer_md or "")
