"""stats: what the reader keeps of a matching (its prompts' and answers' texts) and how a response is read."""

from __future__ import annotations

from pipeline.shapes.pairs import Pairs
from pipeline.stats.match import ItemKey
from pipeline.stats.responses import pairs_from_texts
from pipeline.text.plaintext import to_plain


def fields(part: Pairs) -> dict:
    return {"prompt_texts": tuple((p.id, to_plain(p.text_md)) for p in part.prompts),
            "answer_texts": tuple((a.id, to_plain(a.text_md)) for a in part.answers)}


def read(key: ItemKey, raw: str, form: str) -> tuple[None, dict[str, str]]:
    if form == "ids":
        return None, {p.strip(): a.strip() for p, _, a in (part.partition("=") for part in raw.split("|")) if a}
    return None, pairs_from_texts(key, [part.partition(" -> ")[::2] for part in raw.split("; ")])  # qtype_match
