"""Reading a response as an export writes it, then scoring it by the one grading of `pipeline.shapes.grading`.

Exports name what a learner chose in their own ways: the bank's ids (the long format), the options' texts
(Moodle's "4096; 4097", Canvas's "4096,4097"), "prompt -> answer" pairs. The functions here turn those into
the response a part's rule takes (option ids, text, prompt -> answer ids, item ids in order) and leave the
score to `shapes.grading.grade`, so an answer scores here as it does on the site and in the exports' notes
(a multiple question's partial credit included). An essay (a text part without accepted answers) has no
key: its export must give the mark.
"""

from __future__ import annotations

from pipeline.shapes import registry
from pipeline.shapes.grading import grade, normalise
from pipeline.stats.match import ItemKey


class ResponseError(ValueError):
    """A response that names no option, pair or item of its question: the row is reported unmatched."""


def score(key: ItemKey, response: object) -> float | None:
    """The fraction of the marks; None when a person must judge it (an essay). An empty response scores 0."""
    if not key.auto:
        return None
    return grade(key.rule, response).score


def choices_from_ids(key: ItemKey, raw: str, sep: str = "|") -> tuple[str, ...]:
    """"a|c" -> ("a", "c"), each checked against the question's options."""
    known = key.option_ids
    if raw in known:  # the common case: one option id
        return (raw,)
    ids = tuple(part.strip() for part in raw.split(sep) if part.strip())
    bad = [i for i in ids if i not in known]
    if bad:
        raise ResponseError(f"{bad[0]!r} is not an option id of {key.id} (options: {', '.join(sorted(known))})")
    if not key.rule.get("multiple") and len(ids) > 1:
        raise ResponseError(f"{key.id} takes one option, not {len(ids)}")
    return tuple(sorted(set(ids)))


def choices_from_texts(key: ItemKey, texts: list[str]) -> tuple[str, ...]:
    """The options whose text the export printed."""
    found = []
    for text in texts:
        option = key.by_text.get(normalise(text))
        if option is None:
            raise ResponseError(f"{_cut(text)!r} is not the text of an option of {key.id}")
        found.append(option)
    return tuple(sorted(set(found)))


def choices_from_summary(key: ItemKey, summary: str, sep: str) -> tuple[str, ...]:
    """The whole summary as one option's text first (a text may hold the separator), else split on it."""
    whole = key.by_text.get(normalise(summary))
    if whole is not None:
        return (whole,)
    return choices_from_texts(key, [part for part in summary.split(sep) if part.strip()])


def pairs_from_texts(key: ItemKey, given: list[tuple[str, str]]) -> dict[str, str]:
    """(prompt text, answer text) pairs as prompt id -> answer id; an unknown text matches nothing."""
    prompts = {normalise(t): i for i, t in key.prompt_texts}
    answers = {normalise(t): i for i, t in key.answer_texts}
    return {prompts[normalise(p)]: answers.get(normalise(a), "?") for p, a in given if normalise(p) in prompts}


def order_from_texts(key: ItemKey, texts: list[str]) -> list[str]:
    items = {normalise(t): i for i, t in key.item_texts}
    return [items.get(normalise(t), "?") for t in texts]


def read(key: ItemKey, raw: str, form: str) -> tuple[tuple[str, ...] | None, object]:
    """A response as an export wrote it -> (options chosen or None, the response a rule takes), by the shape's
    reader (pipeline/shapes/registry.py, `stats_read`). `form`: "ids", the bank's ids (the long format:
    "a|c", "p1=m2|p2=m1", "i2|i1"), or "summary", an LMS report's texts ("4096; 4097", "prompt -> answer; ...")."""
    return registry.writer(key.shape, "stats_read")(key, raw, form)


def from_ids(key: ItemKey, raw: str) -> tuple[tuple[str, ...] | None, object]:
    """A response in the bank's ids (the long format) -> (options chosen or None, the response a rule takes)."""
    return read(key, raw, "ids")


def read_as_given(key: ItemKey, raw: str, form: str) -> tuple[None, str]:
    """A typed answer (text, a number): the response is the text itself, in either form."""
    return None, raw


def _cut(text: str, width: int = 50) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"
