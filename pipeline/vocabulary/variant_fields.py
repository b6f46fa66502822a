"""`variants:` on a question: the question is a template, and each variant fills it with its own values.

Two forms. With `code:`, a Python block defines `generate(seed)`, which returns a dict of values (the
answer among them); `python -m pipeline variants` runs it in the examples' sandbox and records what it
returned in `variants.lock.json`, which `build` reads without running anything. With `values:`, lists of
values are combined (`combine: product`, every combination) or zipped (`combine: zip`, the n-th of each
list together); nothing runs, and the variants are drawn from the combinations in an order seeded by the
question's id.

The template syntax, in stem, options, answer(s), tolerance, pairs, items, accept and explanation:
`{{ name }}` is the value, `{{ name:.2f }}` the value in a Python format spec (`.2f`, `,`, `.1%`, `d`).
A field that is only `{{ name }}` takes the value as it is (a number stays a number: `answer: "{{ ratio }}"`).
"""

from __future__ import annotations

import math
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, StrictBool, StrictFloat, StrictInt, StringConstraints, model_validator

from pipeline.vocabulary.fields import SHORT, Strict, Verbatim

NAME_PATTERN = r"[a-z_][a-z0-9_]{0,39}"
ValueName = Annotated[str, StringConstraints(pattern=rf"^{NAME_PATTERN}$"),
                      Field(description="A value's name: lower case letters, digits and _, starting with a letter or _ (at most 40).")]
# A whole field that is one placeholder: where the schema wants a number or true/false, a varied question writes this.
Placeholder = Annotated[str, StringConstraints(pattern=rf"^\{{\{{\s*{NAME_PATTERN}\s*\}}\}}$"),
                        Field(description="`{{ name }}`: the value of `name` in each variant (only in a question with `variants:`).")]


def _finite(value: float) -> float:
    if not math.isfinite(value):
        raise ValueError("must be a finite number")
    return value


Scalar = (StrictBool | StrictInt | Annotated[StrictFloat, AfterValidator(_finite)]
          | Annotated[str, StringConstraints(max_length=SHORT)])

MAX_COUNT = 100  # variants built per question
MAX_VALUES = 1000  # combinations a `values:` form may make


class Bounds(Strict):
    """The range a sensible answer lies in; a variant whose answer leaves it is a finding (variant-bounds)."""

    low: StrictInt | StrictFloat | None = Field(default=None, description="The smallest sensible answer (inclusive).")
    high: StrictInt | StrictFloat | None = Field(default=None, description="The largest sensible answer (inclusive).")


class Variants(Strict):
    """How the question varies: `code:` (a `generate(seed)` function) or `values:` lists, and how many variants are built."""

    code: Verbatim | None = Field(
        default=None,
        description="Python defining `generate(seed)`, which returns a dict of values by name (numbers, text, true/false), e.g. "
                    "{\"bits\": 4, \"answer\": 4.0}; run in the examples' sandbox by `variants` (standard library and the exam's "
                    "`examples.requirements` only), each seed's values recorded in variants.lock.json.")
    values: dict[ValueName, Annotated[list[Scalar], Field(min_length=1, max_length=MAX_VALUES)]] | None = Field(
        default=None, description="Without code: each name's list of values, e.g. {bits: [8, 4], ratio: [2, 4]}.")
    combine: Literal["product", "zip"] = Field(
        default="product", description="How `values:` lists go together: product (every combination) or zip (the n-th of each list; lists of one length).")
    count: int = Field(default=3, ge=1, le=MAX_COUNT, description=f"How many variants are built (1-{MAX_COUNT}); variant 1 is the one printed.")
    seed: Annotated[str, StringConstraints(max_length=40)] = Field(
        default="", description="Mixed into every variant's seed with the question's id and the variant's number: change it to draw other variants.")
    bounds: Bounds | None = Field(default=None, description="The range a sensible answer lies in: {low: 1, high: 64}; the stress test reports answers outside it.")
    distractors: list[ValueName] = Field(
        default_factory=list, max_length=20,
        description="Names of values that are likely wrong answers (e.g. the ratio upside down): a numeric variant whose tolerance takes one is a finding (variant-tolerance-overlap).")
    environment: Literal["exam", "stdlib"] = Field(
        default="exam", description="Where the code runs: exam (the default: the exam's examples.requirements, the worked examples' environment) or stdlib (the standard library alone: nothing to install).")
    timeout: float = Field(default=5.0, gt=0, le=60, description="Seconds one seed's `generate` may run before it counts as a timeout (variant-timeout).")

    @model_validator(mode="after")
    def _one_form(self) -> Variants:
        if (self.code is None) == (self.values is None):
            raise ValueError("give either `code:` (a generate(seed) function) or `values:` (lists of values), not both and not neither")
        if self.values is not None and self.combine == "zip" and len({len(v) for v in self.values.values()}) > 1:
            lengths = ", ".join(f"{k}: {len(v)}" for k, v in self.values.items())
            raise ValueError(f"combine: zip needs lists of one length, got {lengths}; make them equal or use combine: product")
        if self.bounds and self.bounds.low is not None and self.bounds.high is not None and self.bounds.low > self.bounds.high:
            raise ValueError("bounds: low is above high")
        return self
