"""Classical test theory computed by the engine: sums per item, per option and per score level, never a row in Python.

Input: the engine's `answers` table, one row per answer (learner, item, score, when, file, order, pair) and
`pair_option` (which options each graded response chose). Steps, each one SQL statement:

1. `first`: each learner's first answer to each item (earliest time; untimed after timed; then file name and
   order, as Moodle counts first attempts), or the last with `all_attempts`.
2. `tot`: each learner's total over the items they answered, and how many.
3. Per item: n, the mean, and the item-rest correlation (DuckDB's `corr`, a numerically stable one-pass
   covariance), with min and max to tell a constant column.
4. Per item and total score (a *level*): learners and their summed item score; per item, option and level:
   learners who chose it. The tie-aware 27% groups are weights per level (`pipeline.stats.ctt._bottom`: levels
   wholly past the cut count 1, the level at the cut the share of its learners that fills the group), so D
   and the options' upper and lower counts are sums over levels. The levels' table has at most one row per
   item and distinct total, which the engine keeps (spilling if a file makes it huge).
5. Cronbach's alpha over the learners who answered every item, and alpha without item j over those who
   answered every item but possibly j, from per-item sums of x, x^2 and x*total (item by item for the few
   learners who missed exactly j). With varied questions, over questions: a question's variants are one item.

The figures equal `pipeline.stats.ctt`'s (the in-memory reference this module replaced; tests compare the two
to 1e-9 on the fixtures and on LSAT-6/7); only the order floating-point sums are added in differs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import duckdb
import numpy as np

from pipeline.stats.ctt import GROUP, ItemStats, OptionStats, TestStats, group_size
from pipeline.stats.match import ItemKey

_RANK = "(t_us IS NULL, coalesce(t_us, 0), fname, ord)"


@dataclass(frozen=True)
class Computed:
    items: dict[str, ItemStats]  # by question id, for the items that have answers
    test: TestStats
    alpha_without: dict[str, float | None]
    answers: int  # answers counted (first attempts, or every one)
    later: int  # later attempts set aside
    present: list[int]  # the items answered, by their place in the keys


def compute(con: duckdb.DuckDBPyConnection, keys: list[ItemKey], all_attempts: bool = False, units: dict[int, int] | None = None) -> Computed:
    """The statistics of every item in `answers` (items numbered by their place in `keys`). `units` maps each variant
    of a varied question to its question's item (its variant 1): alpha is then over questions (`_alpha_by_question`)."""
    pick = "arg_max" if all_attempts else "arg_min"
    con.execute(f"""CREATE OR REPLACE TEMP TABLE first AS
        SELECT learner, item, {pick}({{'x': score, 'p': pair}}, {_RANK}) AS a, count(*) AS tries FROM answers GROUP BY learner, item""")
    con.execute("CREATE OR REPLACE TEMP TABLE f AS SELECT learner, item, a.x AS x, a.p AS pair FROM first")
    counted, total_rows = con.execute("SELECT count(*), coalesce(sum(tries), 0) FROM first").fetchone()
    later = 0 if all_attempts else int(total_rows) - int(counted)
    if all_attempts:
        counted = total_rows
    con.execute("CREATE OR REPLACE TEMP TABLE tot AS SELECT learner, sum(x) AS total, count(*) AS k FROM f GROUP BY learner")
    con.execute("CREATE OR REPLACE TEMP TABLE j AS SELECT f.item, f.x, t.total, t.total - f.x AS rest, f.pair, t.k, f.learner "
                "FROM f JOIN tot t USING (learner)")
    present = [int(i) for (i,) in con.execute("SELECT DISTINCT item FROM j ORDER BY item").fetchall()]
    order = [keys[i] for i in present]
    items = _items(con, order, present)
    test, without = _alpha_by_question(con, keys, present, units) if units else _alpha(con, order, present)
    return Computed(items, test, without, int(counted), later, present)


def _items(con, order: list[ItemKey], present: list[int]) -> dict[str, ItemStats]:
    base = {int(r[0]): r[1:] for r in con.execute(
        "SELECT item, count(*), avg(x), corr(x, rest), min(x), max(x), min(rest), max(rest), sum(rest), sum(rest * rest) "
        "FROM j GROUP BY item").fetchall()}
    levels: dict[int, list[tuple[float, int, float]]] = {}
    for item, total, n, sx in con.execute("SELECT item, total, count(*), sum(x) FROM j GROUP BY item, total ORDER BY item, total").fetchall():
        levels.setdefault(int(item), []).append((total, int(n), sx))
    picks: dict[tuple[int, str], dict[float, int]] = {}
    sums: dict[tuple[int, str], float] = {}
    for item, option, total, n, srest in con.execute(
            "SELECT j.item, po.option, j.total, count(*), sum(j.rest) FROM j JOIN pair_option po ON po.pair = j.pair "
            "GROUP BY ALL").fetchall():
        picks.setdefault((int(item), option), {})[total] = int(n)
        sums[(int(item), option)] = sums.get((int(item), option), 0.0) + srest
    out = {}
    for i, key in zip(present, order, strict=True):
        n, mean, r, xmin, xmax, rmin, rmax, srest, srest2 = base[i]
        lower, upper = _weights(levels[i], n)
        size = group_size(n)
        d = (sum(upper[t] * sx for t, _, sx in levels[i]) - sum(lower[t] * sx for t, _, sx in levels[i])) / size if n >= 4 else None
        r = r if n >= 3 and xmin != xmax and rmin != rmax and r is not None and not math.isnan(r) else None
        options, strongest = _options(key, i, n, picks, sums, lower, upper, srest, srest2, rmin != rmax)
        out[key.id] = ItemStats(key.id, n, float(mean), None if r is None else float(r), None if d is None else float(d), options, strongest)
    return out


def _weights(levels: list[tuple[float, int, float]], n: int) -> tuple[dict[float, float], dict[float, float]]:
    """Per total score: its learners' weight in the lower and in the upper group (tie-aware, as `ctt._bottom`)."""
    size = max(1, int(round(GROUP * n)))

    def fill(ordered) -> dict[float, float]:
        weights, below = {}, 0
        for total, count, _ in ordered:
            weights[total] = min(1.0, max(0.0, (size - below) / count))
            below += count
        return weights

    return fill(levels), fill(reversed(levels))


def _options(key: ItemKey, i: int, n: int, picks, sums, lower, upper, srest: float, srest2: float, rest_varies: bool):
    if not key.is_choice:
        return None, None
    options = {}
    for o in key.options:
        chosen = picks.get((i, o.id), {})
        count = sum(chosen.values())
        up = sum(upper[t] * c for t, c in chosen.items())
        low = sum(lower[t] * c for t, c in chosen.items())
        r = None
        if n >= 3 and 0 < count < n and rest_varies:
            # Pearson's r of a 0/1 mask against rest, from sums: cov = S(m r)/n - (S m/n)(S r/n), var(m) = p(1-p)
            p, mean_rest = count / n, srest / n
            cov = sums[(i, o.id)] / n - p * mean_rest
            var_rest = srest2 / n - mean_rest * mean_rest
            r = float(cov / math.sqrt(p * (1 - p) * var_rest)) if var_rest > 0 else None
        options[o.id] = OptionStats(count, count / n, float(up), float(low), r, o.correct)
    ranked = sorted(key.options, key=lambda o: (-options[o.id].upper, -options[o.id].count, o.letter))
    return options, ranked[0].id if options[ranked[0].id].upper else None


def _alpha(con, order: list[ItemKey], present: list[int], j: str = "j", tot: str = "tot") -> tuple[TestStats, dict[str, float | None]]:
    """Alpha over the items of table `j` (item, x, total, k, learner) and `tot` (learner, total, k), and alpha without each."""
    m = len(present)
    learners, complete = con.execute(f"SELECT count(*), count(*) FILTER (WHERE k = {m}) FROM {tot}").fetchone()
    col = {item: c for c, item in enumerate(present)}
    # the complete learners: per item n, S x, S x^2, S x*T; and S T, S T^2
    c_rows = con.execute(f"SELECT item, count(*), sum(x), sum(x * x), sum(x * total) FROM {j} WHERE k = {m} GROUP BY item").fetchall()
    n_c = int(complete)
    s1, s2, sp = np.zeros(m), np.zeros(m), np.zeros(m)
    for item, _, a, b, c in c_rows:
        s1[col[item]], s2[col[item]], sp[col[item]] = a, b, c
    st, st2 = (con.execute(f"SELECT coalesce(sum(total), 0), coalesce(sum(total * total), 0) FROM {tot} WHERE k = {m}").fetchone())
    whole = _alpha_from(m, n_c, s1, s2, st, st2)
    # learners who missed exactly one item, grouped by the one they missed
    con.execute(f"""CREATE OR REPLACE TEMP TABLE miss AS SELECT learner, {sum(present)} - sum(item) AS missed FROM {j} WHERE k = {m - 1}
                    GROUP BY learner""")
    mj: dict[int, tuple] = {}
    for missed, n, t1, t2 in con.execute(f"SELECT missed, count(*), sum(t.total), sum(t.total * t.total) FROM miss JOIN {tot} t USING (learner) "
                                         "GROUP BY missed").fetchall():
        mj[int(missed)] = (int(n), t1, t2, np.zeros(m), np.zeros(m))
    for missed, item, a, b in con.execute(f"SELECT missed, j.item, sum(j.x), sum(j.x * j.x) FROM miss JOIN {j} AS j USING (learner) GROUP BY ALL").fetchall():
        mj[int(missed)][3][col[item]], mj[int(missed)][4][col[item]] = a, b
    without = {}
    for c, (item, key) in enumerate(zip(present, order, strict=True)):
        keep = [x for x in range(m) if x != c]
        n, a1, a2 = n_c, s1[keep].copy(), s2[keep].copy()
        t1, t2 = st - s1[c], st2 - 2 * sp[c] + s2[c]  # the complete learners' totals without item c
        if item in mj:
            k, u1, u2, x1, x2 = mj[item]
            n, t1, t2 = n + k, t1 + u1, t2 + u2
            a1, a2 = a1 + x1[keep], a2 + x2[keep]
        without[key.id] = _alpha_from(m - 1, n, a1, a2, t1, t2)
    return TestStats(int(learners), m, whole, n_c), without


def _alpha_by_question(con, keys: list[ItemKey], present: list[int], units: dict[int, int]) -> tuple[TestStats, dict[str, float | None]]:
    """Alpha over questions, a varied question's variants one item: a learner meets one variant of it (an LMS draws
    one per attempt), so over variants no learner would answer every item. A learner's score on the question is the
    mean over the variants they answered; each variant's alpha-without is its question's."""
    con.execute("CREATE OR REPLACE TEMP TABLE umap (item INTEGER, unit INTEGER)")
    con.executemany("INSERT INTO umap VALUES (?, ?)", sorted(units.items()))
    con.execute("CREATE OR REPLACE TEMP TABLE ua AS SELECT f.learner, coalesce(u.unit, f.item) AS item, avg(f.x) AS x "
                "FROM f LEFT JOIN umap u USING (item) GROUP BY ALL")
    con.execute("CREATE OR REPLACE TEMP TABLE utot AS SELECT learner, sum(x) AS total, count(*) AS k FROM ua GROUP BY learner")
    con.execute("CREATE OR REPLACE TEMP TABLE uj AS SELECT ua.item, ua.x, t.total, t.k, ua.learner FROM ua JOIN utot t USING (learner)")
    questions = sorted({units.get(i, i) for i in present})
    test, without = _alpha(con, [keys[i] for i in questions], questions, "uj", "utot")
    return test, {keys[i].id: without[keys[units.get(i, i)].id] for i in present}


def _alpha_from(k: int, n: int, s1, s2, t1: float, t2: float) -> float | None:
    """Cronbach's alpha from sums over n learners: per item S x and S x^2, and S T, S T^2 of their totals."""
    if k < 2 or n < 3:
        return None
    total_var = (t2 - t1 * t1 / n) / (n - 1)
    if total_var <= 0 or abs(total_var) < 1e-12 * max(1.0, t2 / n):
        return None
    item_var = float(np.sum((np.asarray(s2) - np.asarray(s1) ** 2 / n) / (n - 1)))
    return float(k / (k - 1) * (1 - item_var / total_var))


def score_matrix(con: duckdb.DuckDBPyConnection, present: list[int], limit: int) -> tuple[np.ndarray, int]:
    """First-attempt scores, learners (by name) x items (NaN where not answered), of at most `limit` learners: when
    there are more, a fixed sample of them (by the MD5 of their id), for the 2PL fit; and how many learners there are."""
    learners = con.execute("SELECT count(*) FROM tot").fetchone()[0]
    chosen = "SELECT learner FROM tot" if learners <= limit else f"SELECT learner FROM tot ORDER BY md5(learner), learner LIMIT {int(limit)}"
    con.execute(f"CREATE OR REPLACE TEMP TABLE sample AS SELECT learner, row_number() OVER (ORDER BY learner) - 1 AS i FROM ({chosen})")
    col = {item: c for c, item in enumerate(present)}
    got = con.execute("SELECT s.i, f.item, f.x FROM f JOIN sample s USING (learner)").fetchnumpy()
    matrix = np.full((min(learners, limit), len(present)), np.nan)
    if len(got["i"]):
        cols = np.vectorize(col.__getitem__, otypes=[np.int64])(np.asarray(got["item"]))
        matrix[np.asarray(got["i"], dtype=np.int64), cols] = np.asarray(got["x"], dtype=float)
    return matrix, int(learners)
