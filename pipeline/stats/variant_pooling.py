"""A varied question's statistics: its variants' answers pooled per question, and whether the variants are equally hard.

Each variant is an item of its own (`<id>.vN`, its own options and key: `pipeline.stats.match`); the question's own
id holds the pooled record, which `validate` judges at the question's line:

- n: the answers counted to any of its variants (first attempts per variant, as each variant's row counts them;
  a learner who met two variants counts in each);
- facility: the mean score over those answers, i.e. the variants' facilities weighted by their answers;
- point-biserial: Pearson's r between an answer's score and its learner's rest score, the total without every
  variant of this question the learner answered (so the question never correlates with itself), over the pooled
  answers; only when every variant's figures come from per-learner answers;
- per variant: its answers, facility and answers with full marks (`right`), what the homogeneity test reads.

Not pooled: the option counts (options differ in text and place between variants) and D (each variant's row has
them). Alpha is over questions (`pipeline.stats.columnar._alpha_by_question`): the pooled record's alpha without
the item is its question's.

The homogeneity test (`homogeneity`): Pearson's chi-square on the variants x (right, wrong) table, right meaning
full marks, over the variants with at least `least` answers (below that a share says little, and the
chi-square's approximation needs expected counts of about 5 in each cell); p from the chi-square distribution
with k - 1 degrees of freedom (scipy). Variants under `least` answers are named as not tested.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from scipy.stats import chi2

from pipeline.stats.match import QuestionIndex
from pipeline.stats.store import ItemRecord, VariantRecord

FULL_MARKS = 1 - 1e-9  # a score this high is full marks (scores are fractions summed in floating point)
TEST = "Pearson's chi-square"


@dataclass(frozen=True)
class Homogeneity:
    tested: tuple[str, ...]  # the variants compared (least answers or more, with right counts)
    untested: tuple[tuple[str, str], ...]  # (variant, why not)
    chi_square: float | None = None  # None: fewer than two variants to compare
    df: int = 0
    p: float | None = None


def pooled(con, index: QuestionIndex, order: list[str], items: dict[str, ItemRecord]) -> dict[str, dict]:
    """Per varied question with answers: the pooled figures (n, facility, point_biserial, variants) from the engine's
    `j` table (`pipeline.stats.columnar`: one row per counted answer, with its learner's total; `con` None when no
    answer came per learner) and the variants' records. `order` is the engine's item numbering (the index's keys in order)."""
    number = {qid: i for i, qid in enumerate(order)}
    answered = {q: [v for v in vids if v in items] for q, vids in index.variants.items()}
    answered = {q: vids for q, vids in answered.items() if vids}
    if not answered:
        return {}
    right, sums, r_of = _from_answers(con, [(number[v], q) for q, vids in answered.items() for v in vids], order) if con else ({}, {}, {})
    out = {}
    for q, vids in answered.items():
        records = [items[v] for v in vids]
        n = sum(r.n for r in records)
        known = all(r.facility is not None for r in records) and n
        every_response = all(r.source == "responses" for r in records)
        # the scores' sum where the answers are in the engine (exact), the platform's facility x n where not
        total = sum(sums[v] if v in sums else items[v].n * (items[v].facility or 0.0) for v in vids)
        out[q] = {"n": n, "facility": total / n if known else None,
                  "point_biserial": r_of.get(q) if every_response and n >= 3 else None,
                  "source": records[0].source if len({r.source for r in records}) == 1 else "mixed",
                  "variants": {v: VariantRecord(n=items[v].n, facility=items[v].facility, right=right.get(v)) for v in vids}}
    return out


def _from_answers(con, rows: list[tuple[int, str]], order: list[str]) -> tuple[dict[str, int], dict[str, float], dict[str, float]]:
    """Per variant its answers with full marks and its scores' sum; per question the pooled point-biserial (see the
    module's docstring)."""
    con.execute("CREATE OR REPLACE TEMP TABLE vmap (item INTEGER, q VARCHAR)")
    con.executemany("INSERT INTO vmap VALUES (?, ?)", rows)
    per = con.execute(f"SELECT item, count(*) FILTER (WHERE x >= {FULL_MARKS!r}), sum(x) FROM j WHERE item IN (SELECT item FROM vmap) "
                      "GROUP BY item").fetchall()
    right, sums = {order[int(i)]: int(r) for i, r, _ in per}, {order[int(i)]: float(s) for i, _, s in per}
    found = con.execute("""
        WITH own AS (SELECT j.lid, v.q, sum(j.x) AS sx FROM j JOIN vmap v USING (item) GROUP BY ALL)
        SELECT v.q, corr(j.x, j.total - own.sx), min(j.total - own.sx), max(j.total - own.sx), min(j.x), max(j.x)
        FROM j JOIN vmap v USING (item) JOIN own ON own.lid = j.lid AND own.q = v.q GROUP BY v.q""").fetchall()
    r_of = {q: float(r) for q, r, rmin, rmax, xmin, xmax in found if r is not None and not math.isnan(r) and rmin != rmax and xmin != xmax}
    return right, sums, r_of


def homogeneity(variants: dict[str, VariantRecord], least: int) -> Homogeneity:
    """Pearson's chi-square across the variants with `least` answers or more (see the module's docstring)."""
    untested = tuple((v, f"{r.n} answers, under {least}") if r.right is not None else (v, "a platform's statistics, no marks per answer")
                     for v, r in variants.items() if r.right is None or r.n < least)
    tested = tuple(v for v in variants if v not in dict(untested))
    if len(tested) < 2:
        return Homogeneity(tested, untested)
    table = [(variants[v].right, variants[v].n - variants[v].right) for v in tested]
    x = chi_square(table)
    df = len(tested) - 1
    return Homogeneity(tested, untested, x, df, float(chi2.sf(x, df)))


def chi_square(table: list[tuple[int, int]]) -> float:
    """Pearson's X^2 = sum over cells of (observed - expected)^2 / expected, expected = row total x column total / N;
    0 when a column is empty (every variant all right, or all wrong: nothing differs)."""
    n = sum(a + b for a, b in table)
    columns = (sum(a for a, _ in table), sum(b for _, b in table))
    if 0 in columns:
        return 0.0
    x = 0.0
    for row in table:
        size = sum(row)
        for observed, column in zip(row, columns, strict=True):
            expected = size * column / n
            x += (observed - expected) ** 2 / expected
    return x
