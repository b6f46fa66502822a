"""The engine computes what the in-memory implementation computed: the same figures to 1e-9 on the fixture
exports and on LSAT-6/7, the same first problem of a bad file; and the inputs a platform has (Parquet, JSON
Lines, gzip, several files, `--since`) give the figures of the CSV of the same answers.

The reference is the Python path the engine replaced, kept as `pipeline.stats.ctt` (numpy over a learners x
items matrix) fed by the parsers' answers (`formats.long.parse` on `csvfile.read_table`, first attempts by
`attempts.first_attempts`)."""

from __future__ import annotations

import contextlib
import csv
import gzip
import io
import json
import math
import random
from pathlib import Path

import duckdb
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.cli import main
from pipeline.stats import columnar, ctt, engine, intake
from pipeline.stats.attempts import first_attempts
from pipeline.stats.csvfile import read_table
from pipeline.stats.detect import detect
from pipeline.stats.formats import moodle_statistics
from pipeline.stats.match import QuestionIndex
from pipeline.stats.records import StatsInputError
from tests.kit import stats as kit
from tests.kit.stats import LSAT6, LSAT7, lsat_learners, write_scores_long

HEADER = ["learner", "question_id", "response", "score", "time"]


@pytest.fixture(scope="module")
def fixture(tmp_path_factory):
    root = tmp_path_factory.mktemp("engine")
    sources = kit.write_exam(root)
    view = kit.view_of(sources)
    return root, view, QuestionIndex.of(view), kit.generate(view)


def _reference(files: list[Path], index: QuestionIndex):
    """The figures as the in-memory implementation computed them (every row a Python tuple)."""
    tables = [read_table(p) for p in files]
    chosen = sorted(((t, detect(t)) for t in tables), key=lambda pair: pair[1] is not moodle_statistics)
    context: dict = {}
    parsed = [fmt.parse(table, index, context) for table, fmt in chosen]
    answers, later = first_attempts([a for p in parsed for a in p.answers])
    present = {a.question_id for a in answers}
    order = [qid for qid in index.keys if qid in present]
    m = ctt.matrix(answers, order)
    test, without = ctt.test_stats(m)
    items = {qid: ctt.item_stats(m, j, index.keys[qid]) for j, qid in enumerate(order)}
    return items, test, dict(zip(order, without, strict=True)), len(answers), later


def _engine(files: list[Path], index: QuestionIndex, by_grade: bool | None = None, matrices: list | None = None):
    """The engine's figures; `by_grade` None as `analyse` chooses (summed per grade when no score is given); the 2PL
    sample's matrix appended to `matrices` when given."""
    with engine.connect() as con:
        taken = intake.read_all(con, files, index)
        keep = (lambda present: matrices.append(columnar.score_matrix(con, present, 10))) if matrices is not None else None
        done = columnar.compute(con, list(index.keys.values()), counted_once=keep, by_grade=not taken.scored if by_grade is None else by_grade)
    return done.items, done.test, done.alpha_without, done.answers, done.later


def _close(a, b, what: str) -> None:
    if a is None or b is None:
        assert a is None and b is None, (what, a, b)
    else:
        assert math.isclose(a, b, rel_tol=0, abs_tol=1e-9), (what, a, b)


def _same(reference, engine_side) -> int:
    """Assert every figure equal to 1e-9; return how many were compared."""
    items, test, without, counted, later = reference
    e_items, e_test, e_without, e_counted, e_later = engine_side
    assert (counted, later) == (e_counted, e_later)
    assert (test.learners, test.items, test.alpha_learners) == (e_test.learners, e_test.items, e_test.alpha_learners)
    _close(test.alpha, e_test.alpha, "alpha")
    assert set(items) == set(e_items) and items
    compared = 0
    for qid, s in items.items():
        e = e_items[qid]
        assert (s.n, s.strongest_choice) == (e.n, e.strongest_choice), qid
        for name in ("facility", "point_biserial", "discrimination_index"):
            _close(getattr(s, name), getattr(e, name), f"{qid} {name}")
            compared += 1
        _close(without[qid], e_without[qid], f"{qid} alpha without")
        assert (s.options is None) == (e.options is None), qid
        for oid, o in (s.options or {}).items():
            eo = e.options[oid]
            assert (o.count, o.correct) == (eo.count, eo.correct), (qid, oid)
            for name in ("share", "upper", "lower", "point_biserial"):
                _close(getattr(o, name), getattr(eo, name), f"{qid} {oid} {name}")
                compared += 1
    return compared


@pytest.mark.parametrize("fmt", ["long", "moodle-responses", "canvas-students"])
def test_the_engine_gives_the_in_memory_figures_on_each_fixture_export(fixture, fmt):
    root, view, index, model = fixture
    writer = {"long": kit.write_long, "moodle-responses": kit.write_moodle_responses, "canvas-students": kit.write_canvas_students}[fmt]
    extra = {"extra_rows": [["u-x", "9.9-q1", "a", "", ""], ["u-y", kit.qid(0), "", "", ""], ["u0000", kit.qid(0), "a", "", "2026-12-01T09:00:00Z"],
                            ["u0001", kit.qid(1), "b", "", ""], ["u0001", kit.qid(1), "a", "", ""]]} if fmt == "long" else {}
    path = writer(root / f"{fmt}.csv", model, view, **extra)
    assert _same(_reference([path], index), _engine([path], index)) > 36 * 3


@pytest.mark.parametrize("counts", [LSAT6, LSAT7], ids=["LSAT-6", "LSAT-7"])
def test_the_engine_gives_the_in_memory_figures_on_lsat(tmp_path, counts):
    kit.write_exam(tmp_path)
    index = QuestionIndex.of(kit.view_of(tmp_path / "sources"))
    learners = lsat_learners(counts)
    path = write_scores_long(tmp_path / "lsat.csv", learners, [f"{random.Random(i).getrandbits(32):08x}" for i in range(1000)], seed=5)
    assert _same(_reference([path], index), _engine([path], index)) == 5 * 3 + 5 * 4 * 4  # 5 items of 4 options (d never chosen)


def test_each_way_of_summing_gives_the_same_figures_and_sample(tmp_path, monkeypatch):
    """Per grade (no score given), per answer, and without the bitmaps (an exam past 960 items): the same figures to
    1e-9, and the same 2PL sample, read from the bitmaps or from the answers."""
    kit.write_exam(tmp_path)
    index = QuestionIndex.of(kit.view_of(tmp_path / "sources"))
    path = write_scores_long(tmp_path / "lsat.csv", lsat_learners(LSAT7), [f"l{i:04d}" for i in range(1000)], seed=3)
    reference = _reference([path], index)
    matrices: list = []
    _same(reference, _engine([path], index, None, matrices))
    _same(reference, _engine([path], index, False, matrices))
    monkeypatch.setattr(columnar, "_WORDS", 0)
    _same(reference, _engine([path], index, None, matrices))
    assert len(matrices) == 3 and matrices[0][1] == 1000 and matrices[0][0].shape == (10, 5)
    assert set(matrices[0][0].ravel().tolist()) == {0.0, 1.0}  # every sampled learner answered every item, some right, some not
    for other in matrices[1:]:
        np.testing.assert_array_equal(matrices[0][0], other[0])


ROWS = st.lists(st.tuples(st.sampled_from(["u1", "u2", "u3", "u4", "u5", " u6 ", "'=u7"]),
                          st.sampled_from([kit.qid(0), kit.qid(1), kit.qid(2), kit.ESSAY, "9.9-q1", f" {kit.qid(3)} "]),
                          st.sampled_from(["a", "b", "c", "d", "a|c", "", "-", " b ", "'-a", "z"]),
                          st.sampled_from(["", "", "", "0", "1", "0.5", "1.5", "x", " 0.25 "]),
                          st.sampled_from(["", "", "2026-11-30T12:00:00Z", "2026-11-30T12:00:00.250+01:00", "2026-11-30 11:00:00Z",
                                           "2026-11-30T12:00:00", "yesterday"])), min_size=1, max_size=40)


@pytest.mark.slow  # sixty hypothesis examples, each through both paths
@settings(max_examples=60, deadline=None)
@given(rows=ROWS)
def test_any_long_file_gives_the_same_figures_or_the_same_first_error(fixture, rows):
    """Random rows, good and bad: both paths give the same figures, or both stop at the same row with the same message."""
    root, _, index, _ = fixture
    path = root / "random.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([HEADER, *rows])
    outcomes = []
    for side in (_reference, _engine):
        try:
            outcomes.append(side([path], index))
        except StatsInputError as exc:
            outcomes.append(str(exc))
    reference, engine_side = outcomes
    if isinstance(reference, str) or isinstance(engine_side, str):
        assert reference == engine_side
    elif reference[0]:
        _same(reference, engine_side)


def _stats(root: Path, *files: Path, since: str | None = None) -> tuple[int, str, dict | None]:
    err = io.StringIO()
    args = ["stats", "--sources", str(root / "sources"), "--today", "2026-11-29", "--out", str(root / "report"),
            *(["--since", since] if since else []), *map(str, files)]
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(err):
        try:
            code = main(args)
        except SystemExit as exc:  # argparse's usage errors
            code = exc.code
    found = root / "sources" / "stats-demo" / "item-stats.json"
    data = json.loads(found.read_text()) if code == 0 else None
    if found.exists():
        found.unlink()
    return code, err.getvalue(), data


def _figures(data: dict) -> dict:
    """What must not depend on the file's kind: everything but the files' own names and formats."""
    return {k: v for k, v in data.items() if k != "files"}


@pytest.fixture(scope="module")
def long_csv(fixture):
    root, view, _, model = fixture
    path = kit.write_long(root / "answers.csv", model, view, extra_rows=[["u-x", "9.9-q1", "a", "", ""], ["'=u-y", kit.qid(0), "'-b", "", ""]])
    code, err, data = _stats(root, path)
    assert code == 0, err
    return path, data


def _rows(path: Path) -> list[list[str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


@pytest.mark.slow  # the long answers file written and read in four formats
def test_jsonl_parquet_and_gzip_give_the_figures_of_the_csv(fixture, long_csv):
    root, *_ = fixture
    path, expected = long_csv
    rows = _rows(path)
    jsonl = root / "answers.jsonl"
    jsonl.write_text("".join(json.dumps(dict(zip(HEADER, [*r[:3], float(r[3]) if r[3] else None, r[4] or None], strict=True))) + "\n"
                             for r in rows[1:]), encoding="utf-8")
    packed_csv, packed_jsonl = root / "answers.csv.gz", root / "answers.jsonl.gz"
    packed_csv.write_bytes(gzip.compress(path.read_bytes()))
    packed_jsonl.write_bytes(gzip.compress(jsonl.read_bytes()))
    parquet = root / "answers.parquet"  # a warehouse's typed columns: score a DOUBLE, time a TIMESTAMP WITH TIME ZONE
    con = duckdb.connect()
    con.execute("SET TimeZone = 'UTC'")
    con.execute("CREATE TABLE t (learner VARCHAR, question_id VARCHAR, response VARCHAR, score DOUBLE, time TIMESTAMPTZ)")
    con.executemany("INSERT INTO t VALUES (?, ?, ?, ?, ?)", [[r[0], r[1], r[2], float(r[3]) if r[3] else None, r[4] or None] for r in rows[1:]])
    con.execute(f"COPY t TO '{parquet}' (FORMAT parquet)")
    con.close()
    checked = []
    for other in (jsonl, packed_csv, packed_jsonl, parquet):
        code, err, data = _stats(root, other)
        assert code == 0, (other, err)
        assert _figures(data) == _figures(expected), other
        assert data["files"][0]["rows"] == expected["files"][0]["rows"] and data["files"][0]["unmatched"] == expected["files"][0]["unmatched"] == 2
        checked.append(other.name)
    assert len(checked) == 4


@pytest.mark.slow  # the long answers file split by month and read again
def test_many_files_read_as_one_set(fixture, long_csv):
    """One file per month: the split answers give the figures of the whole (first attempts across files too)."""
    root, *_ = fixture
    path, expected = long_csv
    header, *rows = _rows(path)
    parts = []
    for k in range(3):
        part = root / f"month-{k}.csv"
        with part.open("w", newline="", encoding="utf-8") as handle:
            csv.writer(handle).writerows([header, *rows[k::3]])
        parts.append(part)
    code, err, data = _stats(root, *parts)
    assert code == 0, err
    assert [f["name"] for f in data["files"]] == ["month-0.csv", "month-1.csv", "month-2.csv"]
    assert sum(f["rows"] for f in data["files"]) == len(rows)
    assert _figures(data) == _figures(expected)


def test_since_counts_only_attempts_on_or_after_the_day(fixture):
    root, view, _, _ = fixture
    rows = [HEADER, ["u1", kit.qid(0), "a", "", "2026-10-31T23:59:59Z"], ["u1", kit.qid(0), "b", "", "2026-11-01T00:00:00Z"],
            ["u2", kit.qid(0), "a", "", "2026-11-02T10:00:00+01:00"], ["u3", kit.qid(0), "b", "", ""], ["u4", kit.qid(0), "a", "", "2026-09-01T00:00:00Z"]]
    path = root / "since.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)
    code, err, data = _stats(root, path, since="2026-11-01")
    assert code == 0, err
    item = data["items"][kit.qid(0)]
    # u1's attempt of 1 November (b, wrong) is its first since then; u2's counts; u3 (no time) and u4 (September) are left out
    assert item["n"] == 2 and item["facility"] == 0.5 and data["learners"] == 2
    assert data["since"] == "2026-11-01" and data["before_since"] == 3 and data["later_attempts"] == 0
    assert "3 before 2026-11-01 left out" in err
    code, err, _ = _stats(root, path, since="1 November")
    assert code == 2 and "expected a date such as 2026-09-01, got '1 November'" in err


@pytest.mark.slow  # the long answers file rewritten and read again
def test_a_file_the_engine_refuses_but_the_csv_module_reads_gives_the_same_figures(fixture, long_csv):
    """Lines of spaces and blank lines above the header: rewritten plainly for the engine, rows numbered as before."""
    root, *_ = fixture
    path, expected = long_csv
    text = path.read_text(encoding="utf-8").splitlines(keepends=True)
    odd = root / "spaces.csv"
    odd.write_text("\n   \n" + text[0] + "  \n".join(text[1:]), encoding="utf-8")
    code, err, data = _stats(root, odd)
    assert code == 0, err
    assert _figures(data) == _figures(expected)
    bad = root / "spaces-bad.csv"
    bad.write_text("\n" + text[0] + "   \n" + "u1,6.1-q01,a,2,\n", encoding="utf-8")
    code, err, _ = _stats(root, bad)
    assert code == 1 and f"{bad}: row 2 (line 4): error: score: expected a number from 0 to 1 (or empty), got '2'" in err, err


def test_the_row_bound_stops_a_file_and_a_gzip_bomb_without_reading_it_whole(fixture, monkeypatch):
    root, *_ = fixture
    monkeypatch.setattr(intake, "MAX_ROWS", 1000)
    bomb = root / "bomb.csv.gz"  # 200,000 rows packed into a few kB: read no further than the bound
    with gzip.open(bomb, "wt", encoding="utf-8", newline="") as handle:
        handle.write(",".join(HEADER) + "\n" + f"u1,{kit.qid(0)},a,,\n" * 200_000)
    assert bomb.stat().st_size < 10_000
    code, err, _ = _stats(root, bomb)
    assert code == 1 and f"{bomb}: row 1002: error: has more than 1,000 rows; split it by month or by course" in err, err
    assert not (root / "sources" / "stats-demo" / "item-stats.json").exists()


def test_parquet_without_the_long_columns_and_broken_jsonl_are_named(fixture):
    root, *_ = fixture
    parquet = root / "other.parquet"
    con = duckdb.connect()
    con.execute(f"COPY (SELECT 'u1' AS learner, 'x' AS question) TO '{parquet}' (FORMAT parquet)")
    con.close()
    code, err, _ = _stats(root, parquet)
    assert code == 1 and f"{parquet}: row 0: error: has no column 'question_id'; expected the long layout's columns" in err, err
    broken = root / "broken.jsonl"
    broken.write_text('{"learner": "u1", "question_id": "6.1-q01", "response": "a"}\n{"learner": "u2", \n', encoding="utf-8")
    code, err, _ = _stats(root, broken)
    assert code == 1 and f"{broken}: row 0: error: cannot be read as JSON Lines" in err, err
    late = root / "late.jsonl"
    late.write_text('{"learner": "u1", "question_id": "6.1-q01", "response": "a", "score": 3}\n', encoding="utf-8")
    code, err, _ = _stats(root, late)
    assert code == 1 and f"{late}: row 1: error: score: expected a number from 0 to 1 (or empty), got '3" in err, err


def test_a_line_break_at_a_quoted_cells_edge_is_trimmed_though_the_bytes_look_plain(fixture):
    """The byte scan (`plaincells`) lets line breaks through; only its count of lines against the records read
    tells a quoted cell holding one, which the engine must then trim as the Python reader does."""
    root, _, index, _ = fixture
    path = root / "edge.csv"
    rows = [[f"u{i}", kit.qid(j), "ab"[(i + j) % 2], "", ""] for i in range(8) for j in range(4)]
    rows[0][0], rows[5][2] = "u0\n", "\nb"
    with path.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle, lineterminator="\n").writerows([HEADER, *rows])
    assert b'"u0\n"' in path.read_bytes()
    assert _same(_reference([path], index), _engine([path], index)) > 4


def test_answers_tied_on_time_file_name_and_row_count_from_the_file_given_first(fixture, tmp_path):
    """Two files of one name, the same rows and times, other responses: the first attempt is the first given file's,
    as the in-memory reference takes it (every learner answered twice, so the engine ranks the answers)."""
    _, _, index, _ = fixture
    files = []
    for n, response in enumerate(("a", "b")):
        path = tmp_path / f"month{n}" / "answers.csv"
        path.parent.mkdir()
        rows = [[f"u{i}", kit.qid(j), response if (i + j) % 3 else "c", "", "2026-11-02T10:00:00Z"] for i in range(8) for j in range(4)]
        with path.open("w", newline="", encoding="utf-8") as handle:
            csv.writer(handle).writerows([HEADER, *rows])
        files.append(path)
    for order in (files, files[::-1]):
        reference, engine_side = _reference(order, index), _engine(order, index)
        assert reference[4] == 32 and _same(reference, engine_side) > 4
