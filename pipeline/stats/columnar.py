"""Classical test theory computed by the engine: sums per item, per option and per score level, never a row in Python.

Input: the engine's `answers` view, one row per answer (learner, item, score, when, file, order, pair, grade) and
`pair_option` (which options each graded response chose). Steps, each one SQL statement:

1. `tot`: each learner's total over their answers, how many, the sum of their items' numbers, and bitmaps of
   the items answered and of those with full marks (whether any item was answered twice, the items answered,
   and the 2PL fit's sample: `score_matrix`); with no score given, also the list of their grades. Only when
   an item was answered twice is there a step 2, which costs more than all the others together.
2. `f`: each learner's first answer to each item (earliest time; untimed after timed; then file name and
   order, as Moodle counts first attempts), or the last with `all_attempts`, and `tot` again over them.
   Without repeats `f` is `answers` itself. `j` (a view): each counted answer with its learner's total,
   learners by number (`tot.lid`), for what needs a learner's answers (varied questions, the fallback sample).
3. `g`: the counted answers grouped by item, option pair, score, the learner's total and whether the learner
   answered every item or missed exactly one (and which): tens of thousands of rows for 10 M answers. Made from
   the learners' lists of grades when there are (no join of every answer to its learner), else from j. Every
   sum below is over g.
4. Per item: n, the mean, and the item-rest correlation from centred sums (two passes over g), with min and
   max to tell a constant column.
5. Per item and total score (a *level*): learners and their summed item score; per item, option and level:
   learners who chose it. The tie-aware 27% groups are weights per level (`pipeline.stats.ctt._bottom`: levels
   wholly past the cut count 1, the level at the cut the share of its learners that fills the group), so D
   and the options' upper and lower counts are sums over levels.
6. Cronbach's alpha over the learners who answered every item, and alpha without item j over those who
   answered every item but possibly j, from per-item sums of x, x^2 and x*total (item by item for the few
   learners who missed exactly j). With varied questions, over questions: a question's variants are one item.

The figures equal `pipeline.stats.ctt`'s (the in-memory reference this module replaced; tests compare the two
to 1e-9 on the fixtures and on LSAT-6/7); only the order floating-point sums are added in differs.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import duckdb
import numpy as np

from pipeline.stats.ctt import GROUP, ItemStats, OptionStats, TestStats, group_size
from pipeline.stats.match import ItemKey

_RANK = "(t_us IS NULL, coalesce(t_us, 0), fno, ord)"  # fno: the file's place among the files' names, ordered as the names are


@dataclass(frozen=True)
class Computed:
    items: dict[str, ItemStats]  # by question id, for the items that have answers
    test: TestStats
    alpha_without: dict[str, float | None]
    answers: int  # answers counted (first attempts, or every one)
    later: int  # later attempts set aside
    present: list[int]  # the items answered, by their place in the keys


def compute(con: duckdb.DuckDBPyConnection, keys: list[ItemKey], all_attempts: bool = False, units: dict[int, int] | None = None,
            counted_once: Callable[[list[int]], None] | None = None, by_grade: bool = False) -> Computed:
    """The statistics of every item in `answers` (items numbered by their place in `keys`). `units` maps each variant
    of a varied question to its question's item (its variant 1): alpha is then over questions (`_alpha_by_question`).
    `counted_once` is called with the items answered as soon as `tot` and `j` hold the counted answers, before the
    sums (the 2PL fit starts there, beside them: `pipeline.stats.analyse`). `by_grade`: every answer's score is its
    grade's (`graded.by_key` of its `gid`: no score given, no platform's marks)."""
    repeated, present = _totals(con, "answers", "score", len(keys), by_grade)
    listed = by_grade and present is not None and not repeated  # tot holds each learner's grades, and they are the counted ones
    total_rows = con.execute("SELECT coalesce(sum(k), 0) FROM tot").fetchone()[0]
    if repeated:  # some learner answered an item more than once: their first (or last) answer counts
        pick = "arg_max" if all_attempts else "arg_min"
        key = _rank_key(con)
        if key:  # one number per answer, ordered as the rank, no two alike: x and pair both come from the answer it picks
            con.execute(f"""CREATE OR REPLACE TEMP TABLE f AS SELECT learner, item, {pick}(score, {key}) AS x, {pick}(pair, {key}) AS pair
                FROM answers GROUP BY learner, item""")
        else:
            con.execute(f"""CREATE OR REPLACE TEMP TABLE first AS
                SELECT learner, item, {pick}({{'x': score, 'p': pair}}, {_RANK}) AS a FROM answers GROUP BY learner, item""")
            con.execute("CREATE OR REPLACE TEMP TABLE f AS SELECT learner, item, a.x AS x, a.p AS pair FROM first")
            con.execute("DROP TABLE first")
        _totals(con, "f", "x", len(keys))
    else:  # one answer per learner and item (most exports): they are the first attempts, and `tot` is already theirs
        con.execute("CREATE OR REPLACE TEMP VIEW f AS SELECT learner, item, score AS x, pair FROM answers")
    counted = con.execute("SELECT coalesce(sum(k), 0) FROM tot").fetchone()[0]
    later = 0 if all_attempts else int(total_rows) - int(counted)
    if all_attempts:
        counted = total_rows
    # j, each counted answer with its learner's total, is a view: what is summed over it is grouped once into `g` (one
    # row per item, option pair, score, total and alpha's learner class: tens of thousands of rows for 10 M answers),
    # and every figure below is a sum over g; holding j (10 M rows) cost more than all those sums together
    con.execute("CREATE OR REPLACE TEMP VIEW j AS SELECT f.item, f.x, t.total, t.total - f.x AS rest, f.pair, t.k, t.lid "
                "FROM f JOIN tot t USING (learner)")
    if present is None:
        present = [int(i) for (i,) in con.execute("SELECT DISTINCT item FROM f ORDER BY item").fetchall()]
    order = [keys[i] for i in present]
    if counted_once:
        counted_once(present)
    if listed:
        _grouped_by_grade(con, len(present), sum(present))
    else:
        _grouped(con, "g", "f JOIN tot t USING (learner)", "f.item", "f.pair", "f.x", len(present), sum(present))
    items = _items(con, order, present)
    test, without = _alpha_by_question(con, keys, present, units) if units else _alpha(con, order, present)
    return Computed(items, test, without, int(counted), later, present)


def _grouped(con, name: str, source: str, item: str, pair: str, x: str, m: int, items_sum: int) -> None:
    """`name`: the answers of `source` (with its learners' `t.total`, `t.k`, `t.si`) counted per item, pair, score, total,
    whether the learner answered all m items (`answered_all`), and for one who missed exactly one, which (`missed`)."""
    con.execute(f"CREATE OR REPLACE TEMP TABLE {name} AS SELECT {item} AS item, {pair} AS pair, {x} AS x, t.total, t.k = {m} AS answered_all, "
                f"CASE WHEN t.k = {m - 1} THEN {items_sum} - t.si END AS missed, count(*) AS n FROM {source} GROUP BY ALL")


def _grouped_by_grade(con, m: int, items_sum: int) -> None:
    """`g` as `_grouped` makes it, from each learner's list of grades in `tot` (`gids`), with no join of every answer
    to its learner's total: counted per grade, total and class, then a grade's item, pair and score looked up."""
    con.execute(f"""CREATE OR REPLACE TEMP TABLE g AS SELECT gr.item, gr.pair, gr.by_key AS x, u.total, u.answered_all, u.missed, sum(u.n) AS n
        FROM (SELECT gid, total, k = {m} AS answered_all, CASE WHEN k = {m - 1} THEN {items_sum} - si END AS missed, count(*) AS n
              FROM (SELECT unnest(gids) AS gid, total, k, si FROM tot) GROUP BY ALL) u
        JOIN graded gr USING (gid) GROUP BY ALL""")


def _rank_key(con) -> str | None:
    """`_RANK` as one HUGEINT (half the cost of ranking by a struct): bit 126 untimed, 62..125 the time, then the
    file's place and the answer's order in as many bits as they need; None when they need more than 61 bits."""
    places, orders, lowest = con.execute("SELECT max(fno), max(ord), min(ord) FROM answers").fetchone()
    width = max(1, int(places).bit_length())
    if lowest < 0 or int(orders).bit_length() > 61 - width:
        return None
    return (f"((t_us IS NULL)::HUGEINT << 126) + ((coalesce(t_us, 0)::HUGEINT + {2**63}) << 62) "
            f"+ (fno::HUGEINT << {61 - width}) + ord::HUGEINT")


_WORD = 120  # items per bitmap word: HUGEINT holds 127 bits
_WORDS = 8  # past this many words the bitmaps cost more than a pass that groups by (learner, item)


def _totals(con, table: str, x: str, m: int, gids: bool = False) -> tuple[bool, list[int] | None]:
    """`tot`: each learner's total, how many answers they gave and the sum of their items' numbers (`si`: for a learner
    who missed one item, which), in one pass over `table`, each learner numbered (`lid`). With up to _WORDS words of
    `m` items, also a bitmap of the items they answered (`s0`...) and of those they got full marks on (`r0`...: the 2PL
    fit's sample is read from these, `score_matrix`). Returns whether any learner answered an item twice (exactly:
    their answers against their distinct items, found without a group per (learner, item), which cost as much as the
    rest of the statistics), and the items answered (None past _WORDS words). With `gids`, also each learner's list
    of grades (`_grouped_by_grade`: with the bitmaps only, which tell whether a learner answered an item twice)."""
    words = -(-m // _WORD)
    bits = words <= _WORDS

    def bitmap(w: int, when: str) -> str:
        return f"bit_or(CASE WHEN item // {_WORD} = {w}{when} THEN (1::HUGEINT) << (item % {_WORD}) ELSE 0 END)"

    maps = "".join(f", {bitmap(w, '')} AS s{w}, {bitmap(w, f' AND {x} >= 1.0')} AS r{w}" for w in range(words)) if bits else ""
    maps += ", list(gid) AS gids" if gids and bits else ""
    con.execute(f"CREATE OR REPLACE TEMP TABLE tot AS SELECT *, CAST(row_number() OVER () AS INTEGER) AS lid FROM ("
                f"SELECT learner, sum({x}) AS total, CAST(count(*) AS INTEGER) AS k, sum(item) AS si{maps} FROM {table} GROUP BY learner)")
    if not bits:
        repeated = con.execute(f"SELECT count(*) > 0 FROM (SELECT 1 FROM {table} GROUP BY learner, item HAVING count(*) > 1)").fetchone()[0]
        return bool(repeated), None
    if not words:
        return False, []
    distinct = " + ".join(f"bit_count(s{w})" for w in range(words))
    found = con.execute(f"SELECT coalesce(sum(k) <> sum({distinct}), false), "
                        + ", ".join(f"coalesce(bit_or(s{w}), 0)" for w in range(words)) + " FROM tot").fetchone()
    present = [w * _WORD + b for w, word in enumerate(found[1:]) for b in range(_WORD) if int(word) >> b & 1]
    return bool(found[0]), present


def _items(con, order: list[ItemKey], present: list[int]) -> dict[str, ItemStats]:
    base = {int(r[0]): r[1:] for r in con.execute(
        "SELECT item, sum(n), sum(n * x) / sum(n), min(x), max(x), min(total - x), max(total - x), sum(n * (total - x)), "
        "sum(n * (total - x) * (total - x)) FROM g GROUP BY item").fetchall()}
    # the item-rest correlation from centred sums (two passes over g, as a one-pass covariance is stable)
    spread = {int(r[0]): r[1:] for r in con.execute(
        "WITH m AS (SELECT item, sum(n * x) / sum(n) AS mx, sum(n * (total - x)) / sum(n) AS mr FROM g GROUP BY item) "
        "SELECT item, sum(n * (x - mx) * (total - x - mr)), sum(n * (x - mx) * (x - mx)), sum(n * (total - x - mr) * (total - x - mr)) "
        "FROM g JOIN m USING (item) GROUP BY item").fetchall()}
    levels: dict[int, list[tuple[float, int, float]]] = {}
    for item, total, n, sx in con.execute("SELECT item, total, sum(n), sum(n * x) FROM g GROUP BY item, total ORDER BY item, total").fetchall():
        levels.setdefault(int(item), []).append((total, int(n), sx))
    picks: dict[tuple[int, str], dict[float, int]] = {}
    sums: dict[tuple[int, str], float] = {}
    for item, option, total, n, srest in con.execute(
            "SELECT g.item, po.option, g.total, sum(g.n), sum(g.n * (g.total - g.x)) FROM g JOIN pair_option po ON po.pair = g.pair "
            "GROUP BY ALL").fetchall():
        picks.setdefault((int(item), option), {})[total] = int(n)
        sums[(int(item), option)] = sums.get((int(item), option), 0.0) + srest
    out = {}
    for i, key in zip(present, order, strict=True):
        n, mean, xmin, xmax, rmin, rmax, srest, srest2 = base[i]
        n = int(n)
        sxy, sxx, syy = spread[i]
        lower, upper = _weights(levels[i], n)
        size = group_size(n)
        d = (sum(upper[t] * sx for t, _, sx in levels[i]) - sum(lower[t] * sx for t, _, sx in levels[i])) / size if n >= 4 else None
        r = None
        if n >= 3 and xmin != xmax and rmin != rmax and sxx > 0 and syy > 0:
            r = sxy / math.sqrt(sxx * syy)
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


def _alpha(con, order: list[ItemKey], present: list[int], g: str = "g", tot: str = "tot") -> tuple[TestStats, dict[str, float | None]]:
    """Alpha over the items of `g` (as `_grouped` makes it) and `tot` (total, k, si per learner), and alpha without each."""
    m = len(present)
    learners, complete = con.execute(f"SELECT count(*), count(*) FILTER (WHERE k = {m}) FROM {tot}").fetchone()
    col = {item: c for c, item in enumerate(present)}
    # the complete learners: per item n, S x, S x^2, S x*T; and S T, S T^2
    c_rows = con.execute(f"SELECT item, sum(n), sum(n * x), sum(n * x * x), sum(n * x * total) FROM {g} WHERE answered_all GROUP BY item").fetchall()
    n_c = int(complete)
    s1, s2, sp = np.zeros(m), np.zeros(m), np.zeros(m)
    for item, _, a, b, c in c_rows:
        s1[col[item]], s2[col[item]], sp[col[item]] = a, b, c
    st, st2 = (con.execute(f"SELECT coalesce(sum(total), 0), coalesce(sum(total * total), 0) FROM {tot} WHERE k = {m}").fetchone())
    whole = _alpha_from(m, n_c, s1, s2, st, st2)
    # learners who missed exactly one item, grouped by the one they missed (the sum of every item's number less theirs)
    mj: dict[int, tuple] = {}
    for missed, n, t1, t2 in con.execute(f"SELECT {sum(present)} - si AS missed, count(*), sum(total), sum(total * total) FROM {tot} "
                                         f"WHERE k = {m - 1} GROUP BY missed").fetchall():
        mj[int(missed)] = (int(n), t1, t2, np.zeros(m), np.zeros(m))
    for missed, item, a, b in con.execute(f"SELECT missed, item, sum(n * x), sum(n * x * x) FROM {g} WHERE missed IS NOT NULL "
                                          "GROUP BY ALL").fetchall():
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
    con.execute("CREATE OR REPLACE TEMP TABLE ua AS SELECT j.lid, coalesce(u.unit, j.item) AS item, avg(j.x) AS x "
                "FROM j LEFT JOIN umap u USING (item) GROUP BY ALL")
    con.execute("CREATE OR REPLACE TEMP TABLE utot AS SELECT lid, sum(x) AS total, count(*) AS k, sum(item) AS si FROM ua GROUP BY lid")
    questions = sorted({units.get(i, i) for i in present})
    _grouped(con, "ug", "ua JOIN utot t USING (lid)", "ua.item", "NULL", "ua.x", len(questions), sum(questions))
    test, without = _alpha(con, [keys[i] for i in questions], questions, "ug", "utot")
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
    """Whether each first attempt had full marks (1.0, else 0.0), learners (by name) x items (NaN where not answered),
    of at most `limit` learners: when there are more, a fixed sample of them (by the MD5 of their id), for the 2PL fit;
    and how many learners there are. Read from `tot`'s bitmaps when it has them, else from j."""
    learners = con.execute("SELECT count(*) FROM tot").fetchone()[0]
    chosen = f"SELECT * FROM tot{'' if learners <= limit else f' ORDER BY md5(learner), learner LIMIT {int(limit)}'}"
    col = {item: c for c, item in enumerate(present)}
    matrix = np.full((min(learners, limit), len(present)), np.nan)
    words = [c[0] for c in con.execute("DESCRIBE tot").fetchall() if c[0][0] == "s" and c[0][1:].isdigit()]
    if words:
        seen = ", ".join(words)
        right = ", ".join("r" + w[1:] for w in words)
        rows = con.execute(f"SELECT {seen}, {right} FROM ({chosen}) ORDER BY learner").fetchall()
        if rows:
            def bits(column: int) -> np.ndarray:  # learners x (words x _WORD) bits, item i at column i
                raw = b"".join(int(v).to_bytes(16, "little") for row in rows for v in row[column * len(words):(column + 1) * len(words)])
                return np.unpackbits(np.frombuffer(raw, dtype=np.uint8), bitorder="little").reshape(len(rows), len(words), 128)[:, :, :_WORD] \
                    .reshape(len(rows), -1)[:, present].astype(bool)
            answered, right_ = bits(0), bits(1)
            matrix[answered] = 0.0
            matrix[answered & right_] = 1.0
        return matrix, int(learners)
    con.execute(f"CREATE OR REPLACE TEMP TABLE sample AS SELECT lid, row_number() OVER (ORDER BY learner) - 1 AS i FROM ({chosen})")
    got = con.execute("SELECT s.i, j.item, j.x FROM j JOIN sample s USING (lid)").fetchnumpy()
    if len(got["i"]):
        cols = np.vectorize(col.__getitem__, otypes=[np.int64])(np.asarray(got["item"]))
        matrix[np.asarray(got["i"], dtype=np.int64), cols] = (np.asarray(got["x"], dtype=float) >= 1.0).astype(float)
    return matrix, int(learners)
