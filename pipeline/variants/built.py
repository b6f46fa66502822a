"""The variants a build uses, from the sources and the lock alone (nothing runs): the `values:` form's
combinations in their seeded order, or the `code:` form's values as `variants` recorded them."""

from __future__ import annotations

import math

from pipeline.questions import QuestionBase
from pipeline.variants.lock import QuestionEntry
from pipeline.variants.made import Variant, VariantInvalid, combinations, drawn_values, make_variant
from pipeline.variants.stress import Draw


def draws_of(q: QuestionBase, entry: QuestionEntry | None) -> list[Draw]:
    """The built variants' draws (1..count): what `stress` and `built_variants` read."""
    v = q.variants
    if v is None:
        return []
    if v.values is not None:
        return [Draw(i, seed, values) for i, seed, values in drawn_values(q.id, v, range(1, v.count + 1))]
    locked = {lv.index: lv for lv in entry.variants} if entry else {}
    return [Draw(i, locked[i].seed, locked[i].values) for i in range(1, v.count + 1) if i in locked]


def all_draws(q: QuestionBase) -> list[Draw]:
    """Every combination of a `values:` form, built ones first: its stress draw is exhaustive."""
    v = q.variants
    assert v is not None and v.values is not None
    n = min(len(combinations(v)), 1000)
    return [Draw(i, seed, values) for i, seed, values in drawn_values(q.id, v, range(1, max(n, v.count) + 1))]


def built_variants(q: QuestionBase, entry: QuestionEntry | None) -> list[Variant]:
    """The variants the outputs show, in index order; one that does not make a valid question is left
    out (validate reports it, so a build with such a question never gets here)."""
    made = []
    for draw in draws_of(q, entry):
        if any(isinstance(x, float) and not math.isfinite(x) for x in draw.values.values()):
            continue
        try:
            made.append(make_variant(q, draw.index, draw.seed, draw.values))
        except VariantInvalid:
            continue
    return made
