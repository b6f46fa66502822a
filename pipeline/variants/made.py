"""A variant as a question of its type: the template's fields rendered with the variant's values, then
validated by the type's own model and checked by the type's own rules, like an authored question.

Its id is the question's id with `.vN`, so the option shuffle (seeded by the id) differs per variant and
the key does not sit at one place in all of them; the outputs still file it under the question's id.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import product
from typing import Any

from pydantic import ValidationError

from pipeline.questions import QUESTION, QuestionBase, type_of
from pipeline.variants.seeds import seed_of
from pipeline.variants.template import TemplateError, render_fields
from pipeline.vocabulary.variant_fields import Variants


@dataclass(frozen=True)
class Variant:
    """Variant `index` (1-based) of a question: its seed, its values and the question they make."""

    index: int
    seed: int
    values: Mapping[str, Any]
    question: QuestionBase


class VariantInvalid(ValueError):
    """The values do not make a valid question of the type: the message says which field and why."""


def variant_id(question_id: str, index: int) -> str:
    return f"{question_id}.v{index}"


def make_variant(q: QuestionBase, index: int, seed: int, values: Mapping[str, Any]) -> Variant:
    try:
        fields = render_fields(q.model_dump(by_alias=True), values)
    except TemplateError as exc:
        raise VariantInvalid(str(exc)) from None
    fields["id"] = variant_id(q.id, index)
    try:
        made = QUESTION.validate_python(fields)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:])  # [0] is the union's tag
        raise VariantInvalid(f"{where}: {first['msg']} (got {first.get('input')!r})") from None
    problems = type_of(made.type).check(made)
    if problems:
        first = problems[0]
        raise VariantInvalid(f"{'.'.join(map(str, first.at))}: {first.message}")
    return Variant(index, seed, dict(values), made)


def combinations(variants: Variants) -> list[dict[str, Any]]:
    """Every set of values a `values:` form makes, in the order written (product: the last name fastest)."""
    names = list(variants.values or {})
    lists = [variants.values[n] for n in names]
    rows = zip(*lists, strict=True) if variants.combine == "zip" else product(*lists)
    return [dict(zip(names, row, strict=True)) for row in rows]


def drawn_values(question_id: str, variants: Variants, indexes: range) -> list[tuple[int, int, dict[str, Any]]]:
    """(index, seed, values) of the `values:` form: the combinations in an order seeded by the id and the
    seed text, variant n the n-th of them, so a larger count keeps the variants already built."""
    rows = combinations(variants)
    random.Random(seed_of(question_id, variants.seed, 0)).shuffle(rows)
    return [(i, seed_of(question_id, variants.seed, i), rows[(i - 1) % len(rows)]) for i in indexes]
