"""stats: what the reader keeps of an ordering (its items' texts) and how a response is read."""

from __future__ import annotations

from pipeline.shapes.sequence import Sequence
from pipeline.stats.match import ItemKey
from pipeline.stats.responses import order_from_texts
from pipeline.text.plaintext import to_plain


def fields(part: Sequence) -> dict:
    return {"item_texts": tuple((i.id, to_plain(i.text_md)) for i in part.items)}


def read(key: ItemKey, raw: str, form: str) -> tuple[None, list[str]]:
    if form == "ids":
        return None, [part.strip() for part in raw.split("|") if part.strip()]
    return None, order_from_texts(key, raw.split("; "))
