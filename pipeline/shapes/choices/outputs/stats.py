"""stats: what the reader keeps of a choice (its options: id, letter, text, right) and how a response is read."""

from __future__ import annotations

from pipeline.shapes.choices import Choices
from pipeline.stats.match import ItemKey, OptionKey
from pipeline.stats.responses import choices_from_ids, choices_from_summary
from pipeline.text.plaintext import to_plain


def fields(part: Choices) -> dict:
    return {"options": tuple(OptionKey(o.id, o.letter, to_plain(o.text_md), o.correct) for o in part.options)}


def read(key: ItemKey, raw: str, form: str) -> tuple[tuple[str, ...], list[str]]:
    chosen = choices_from_ids(key, raw) if form == "ids" else choices_from_summary(key, raw, "; ")
    return chosen, list(chosen)
