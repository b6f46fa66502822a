"""Scoring an answer against the sources' key, for exports that give the response but not the mark.

Choice questions are scored all or nothing (the chosen options are exactly the correct ones), as the
Canvas export declares them; a fill-in by `pipeline.practice.answers.accepts`, the rule every output
states; matching by the share of prompts matched right; ordering all or nothing. An essay (a short answer
with only a model answer) has no key: its export must give the mark.
"""

from __future__ import annotations

from pipeline.practice.answers import accepts, normalize
from pipeline.stats.match import ItemKey


class ResponseError(ValueError):
    """A response that names no option, pair or item of its question: the row is reported unmatched."""


def choices_from_ids(key: ItemKey, raw: str, sep: str = "|") -> tuple[str, ...]:
    """"a|c" -> ("a", "c"), each checked against the question's options."""
    known = key.option_ids
    if raw in known:  # the common case: one option id
        return (raw,)
    ids = tuple(part.strip() for part in raw.split(sep) if part.strip())
    bad = [i for i in ids if i not in known]
    if bad:
        raise ResponseError(f"{bad[0]!r} is not an option id of {key.id} (options: {', '.join(sorted(known))})")
    if key.type != "multiple" and len(ids) > 1:
        raise ResponseError(f"{key.id} is {key.type.replace('_', '/')}: one option, not {len(ids)}")
    return tuple(sorted(set(ids)))


def choices_from_texts(key: ItemKey, texts: list[str]) -> tuple[str, ...]:
    """The options whose text the export printed, e.g. Moodle's "4096; 4097" or Canvas's "4096,4097"."""
    found = []
    for text in texts:
        option = key.by_text.get(normalize(text))
        if option is None:
            raise ResponseError(f"{_cut(text)!r} is not the text of an option of {key.id}")
        found.append(option)
    return tuple(sorted(set(found)))


def choices_from_summary(key: ItemKey, summary: str, sep: str) -> tuple[str, ...]:
    """The whole summary as one option's text first (a text may hold the separator), else split on it."""
    whole = key.by_text.get(normalize(summary))
    if whole is not None:
        return (whole,)
    return choices_from_texts(key, [part for part in summary.split(sep) if part.strip()])


def grade_choices(key: ItemKey, chosen: tuple[str, ...]) -> float:
    if len(chosen) == 1:
        return 1.0 if len(key.correct) == 1 and chosen[0] in key.correct else 0.0
    return 1.0 if chosen and frozenset(chosen) == key.correct else 0.0


def grade_text(key: ItemKey, text: str) -> float | None:
    """A fill-in's typed answer; None for an essay (no accepted answers: a person grades it)."""
    if not key.accepted:
        return None
    return 1.0 if text.strip() and accepts(key.accepted, text) else 0.0


def grade_pairs(key: ItemKey, given: dict[str, str]) -> float:
    if not key.pairs:
        return 0.0
    return sum(1 for prompt, answer in key.pairs if given.get(prompt) == answer) / len(key.pairs)


def grade_order(key: ItemKey, given: tuple[str, ...]) -> float:
    return 1.0 if given == key.order else 0.0


def grade_ids(key: ItemKey, raw: str) -> tuple[tuple[str, ...] | None, float | None]:
    """A response in the bank's ids (the long format): the options chosen and the score, None where unknown."""
    if key.is_choice:
        chosen = choices_from_ids(key, raw)
        return chosen, grade_choices(key, chosen)
    if key.pairs:
        given = dict(part.split("=", 1) for part in raw.split("|") if "=" in part)
        return None, grade_pairs(key, {k.strip(): v.strip() for k, v in given.items()})
    if key.order:
        return None, grade_order(key, tuple(part.strip() for part in raw.split("|") if part.strip()))
    return None, grade_text(key, raw)




def _cut(text: str, width: int = 50) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"
