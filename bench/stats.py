"""Item statistics at a platform's volume: 100 items x 10,000 learners (1 M long-format rows) and x 100,000
learners (10 M rows, about 300 MB), against a bare read of the same file.

- `stats_vs_csv_read` (kept from issue 23): `stats` on the 1 M-row file over reading it with `csv.reader`.
- `stats_vs_engine_read`: `stats` on the 10 M-row file over DuckDB's bare read of it (every column of every
  row parsed, nothing else, same threads).
- `stats_10m_peak_gib`: the peak memory (RSS) of the process running `stats` on the 10 M-row file.
- `stats_scaling`: `stats`' time per row on 10 M rows over its time per row on 1 M.

"`stats`" is what the command does before it writes (read, check, grade each distinct response, first
attempts, CTT, the 2PL fit): `pipeline.stats.run.read_and_analyse`, each run in a fresh process (so its
peak memory is its own), timed inside it. The answers follow a 2PL draw computed by the engine from hashes
(fixed, so every run writes the same files): a right answer picks the key, a wrong one another option.
The sides alternate, three times each; medians.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import duckdb

from bench import Measure
from bench.synthetic import make_exam
from pipeline.check.validate import validate
from pipeline.derive import build_view
from pipeline.settings.reader import exam_inputs
from pipeline.stats import engine
from pipeline.stats.intake import COLUMNS
from pipeline.stats.match import QuestionIndex

TODAY = dt.date(2026, 11, 29)
ITEMS = 100
SMALL, LARGE = 10_000, 100_000  # learners: 1 M and 10 M rows
RUNS = 3


def items_of(sources: Path) -> list:
    """The exam's authored choice questions (at most ITEMS)."""
    content = validate(sources, TODAY).exams[0]
    view = build_view(exam_inputs(content))
    return [q for q in view.questions if q.type in ("single", "multiple", "true_false") and not q.generated][:ITEMS]


def answers(path: Path, questions, learners: int) -> None:
    """learners x questions rows in the long format, learner by learner, written by the engine."""
    con = duckdb.connect()
    con.execute("CREATE TABLE q (j INTEGER, qid VARCHAR, keyed VARCHAR, wrong VARCHAR[], a DOUBLE, b DOUBLE)")
    rows = []
    for j, q in enumerate(questions):
        keyed = [o.id for o in q.parts[0].options if o.correct]
        wrong = [o.id for o in q.parts[0].options if not o.correct] or keyed
        rows.append([j, q.id, "|".join(keyed), wrong, 0.4 + 1.8 * ((j * 37) % 100) / 100, ((j * 61) % 100) / 50 - 1])
    con.executemany("INSERT INTO q VALUES (?, ?, ?, ?, ?, ?)", rows)
    # theta ~ N(0, 1) by Box-Muller from two hashes of the learner; u ~ U(0, 1) from a hash of (learner, item)
    con.execute(f"""COPY (
        WITH l AS (SELECT i, sqrt(-2 * ln((hash(i, 1) % 1000000 + 1) / 1000001.0)) * cos(2 * pi() * (hash(i, 2) % 1000000) / 1000000.0) AS theta
                   FROM range({learners}) t(i))
        SELECT printf('u%06d', l.i) AS learner, q.qid AS question_id,
               CASE WHEN (hash(l.i, q.j) % 1000000) / 1000000.0 < 1 / (1 + exp(-q.a * (l.theta - q.b))) THEN q.keyed
                    ELSE q.wrong[1 + (l.i + q.j) % len(q.wrong)] END AS response, '' AS score, '' AS time
        FROM l, q ORDER BY l.i, q.j) TO '{path}' (HEADER, DELIMITER ',')""")
    con.close()


_CHILD = """
import datetime as dt, json, resource, sys, time
from pathlib import Path
from bench.stats import index_of
from pipeline.stats.run import read_and_analyse
index = index_of(Path(sys.argv[1]))
start = time.perf_counter()
_, data = read_and_analyse("synthetic", [Path(sys.argv[2])], index, dt.date(2026, 11, 29))
took = time.perf_counter() - start
print(json.dumps({"seconds": took, "items": len(data.items), "answers": data.answers, "note": data.irt_note,
                  "peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}))
"""


def index_of(sources: Path) -> QuestionIndex:
    content = validate(sources, TODAY).exams[0]
    return QuestionIndex.of(build_view(exam_inputs(content)))


def ours(sources: Path, path: Path) -> dict:
    """`stats` on the file in a fresh process: its time and its peak memory."""
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-c", _CHILD, str(sources), str(path)], cwd=root, capture_output=True, text=True, check=False,
                          env={**os.environ, "PYTHONPATH": str(root)})
    if done.returncode != 0:
        raise RuntimeError(f"stats failed on {path}: {done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def engine_read(path: Path) -> float:
    """DuckDB's bare read of the file: every field of every row parsed, counted, nothing kept (same threads)."""
    con = duckdb.connect(config={"threads": engine.THREADS})
    start = time.perf_counter()
    con.execute(f"SELECT count(learner), count(question_id), count(response), count(score), count(time) FROM read_csv(?, header = true, "
                f"auto_detect = false, delim = ',', quote = '\"', escape = '\"', columns = {COLUMNS})", [str(path)]).fetchall()
    took = time.perf_counter() - start
    con.close()
    return took


def _csv_only(path: Path) -> float:
    start = time.perf_counter()
    with path.open(newline="", encoding="utf-8") as handle:
        sum(1 for _ in csv.reader(handle))
    return time.perf_counter() - start


def measure() -> list[Measure]:
    with tempfile.TemporaryDirectory() as tmp:
        sources = make_exam(Path(tmp, "sources"), 4)
        questions = items_of(sources)
        small, large = Path(tmp, "answers-1m.csv"), Path(tmp, "answers-10m.csv")
        answers(small, questions, SMALL)
        answers(large, questions, LARGE)
        rows_small, rows_large = len(questions) * SMALL, len(questions) * LARGE
        runs_small, runs_large, reads, csv_reads, loads = [], [], [], [], []
        for _ in range(RUNS):
            loads.append(os.getloadavg()[0])
            runs_small.append(ours(sources, small))
            csv_reads.append(_csv_only(small))
            runs_large.append(ours(sources, large))
            reads.append(engine_read(large))
        assert all(r["items"] == len(questions) for r in runs_small + runs_large)
        assert runs_large[0]["answers"] == rows_large and runs_small[0]["answers"] == rows_small
        size = large.stat().st_size
    t_small = statistics.median(r["seconds"] for r in runs_small)
    t_large = statistics.median(r["seconds"] for r in runs_large)
    t_read, t_csv = statistics.median(reads), statistics.median(csv_reads)
    peak = max(r["peak"] for r in runs_large) / 2**30
    slope = (t_large - t_small) / (rows_large - rows_small)  # seconds per row past the first million
    at_100m = t_large + slope * (100 * rows_large // 10 - rows_large)
    load = f"load average {min(loads):.1f}-{max(loads):.1f}"
    return [
        Measure("stats_vs_csv_read", t_small / t_csv, "<= 30", f"stats {t_small:.2f} s vs csv.reader {t_csv:.2f} s on {rows_small:,} rows ({load})"),
        Measure("stats_vs_engine_read", t_large / t_read, "<= 3",
                f"stats {t_large:.2f} s vs DuckDB's bare read {t_read:.2f} s on {rows_large:,} rows, {size / 1e6:.0f} MB ({load})"),
        Measure("stats_10m_peak_gib", peak, "<= 1.5", f"peak RSS of the stats process on {rows_large:,} rows; 2PL: {runs_large[0]['note'] or 'all learners'}"),
        Measure("stats_scaling", (t_large / rows_large) / (t_small / rows_small), "<= 1.2",
                f"{t_large / rows_large * 1e6:.2f} us/row at 10 M vs {t_small / rows_small * 1e6:.2f} at 1 M; slope {slope * 1e6:.3f} us/row, "
                f"so 100 M rows by the slope: {at_100m:.0f} s"),
    ]
