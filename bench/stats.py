"""`stats_vs_csv_read`: item statistics of 100 items x 10,000 learners (1,000,000 answers in the long
format) over reading the same file with the csv module alone.

Our side is what `stats` does before it writes: read the CSV under its bounds, map every row to its
question and option, keep first attempts, classical statistics per item and per test, and the 2PL fit
(10,000 learners is over its threshold). The baseline reads every row with `csv.reader` and nothing
more, so the ratio is the price of the statistics per row read. The two alternate, three times each.
"""

from __future__ import annotations

import csv
import datetime as dt
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

from bench import Measure
from bench.synthetic import make_exam
from pipeline.check.validate import validate
from pipeline.citations.lock import CitationLock
from pipeline.derive import build_view
from pipeline.stats.match import QuestionIndex
from pipeline.stats.run import read_and_analyse

TODAY = dt.date(2026, 11, 29)
ITEMS, LEARNERS = 100, 10_000


def answers(path: Path, questions, learners: int = LEARNERS) -> None:
    """A 2PL-like draw (fixed seed): a right answer picks the key, a wrong one any other option."""
    rng = np.random.default_rng(23)
    a, b = rng.uniform(0.4, 2.2, len(questions)), rng.normal(0, 1, len(questions))
    theta = rng.normal(0, 1, learners)
    right = rng.random((learners, len(questions))) < 1 / (1 + np.exp(-a * (theta[:, None] - b)))
    with path.open("w", newline="", encoding="utf-8") as handle:
        out = csv.writer(handle)
        out.writerow(["learner", "question_id", "response", "score", "time"])
        for i in range(learners):
            for j, q in enumerate(questions):
                keyed = [o.id for o in q.parts[0].options if o.correct]
                other = [o.id for o in q.parts[0].options if not o.correct] or keyed
                out.writerow([f"u{i:05d}", q.id, "|".join(keyed) if right[i, j] else other[(i + j) % len(other)], "", ""])


def items_of(sources: Path) -> tuple[list, QuestionIndex]:
    """The exam's authored choice questions (at most ITEMS) and the index `stats` maps rows with."""
    content = validate(sources, TODAY).exams[0]
    view = build_view(content, CitationLock.load(content.folder))
    questions = [q for q in view.questions if q.type in ("single", "multiple", "true_false") and not q.generated][:ITEMS]
    return questions, QuestionIndex.of(view)


def ours(path: Path, index: QuestionIndex) -> int:
    _, data = read_and_analyse("synthetic", [path], index, TODAY)
    return len(data.items)


def _csv_only(path: Path) -> int:
    with path.open(newline="", encoding="utf-8") as handle:
        return sum(1 for _ in csv.reader(handle))


def _timed(action) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def measure() -> list[Measure]:
    with tempfile.TemporaryDirectory() as tmp:
        questions, index = items_of(make_exam(Path(tmp, "sources"), 4))
        path = Path(tmp, "answers.csv")
        answers(path, questions)
        assert ours(path, index) == len(questions)
        pairs = [(_timed(lambda: ours(path, index)), _timed(lambda: _csv_only(path))) for _ in range(3)]
        size = path.stat().st_size
    mine, theirs = statistics.median(p[0] for p in pairs), statistics.median(p[1] for p in pairs)
    detail = (f"stats {mine:.1f} s vs csv.reader {theirs:.2f} s over {len(questions)} items x {LEARNERS:,} learners "
              f"({len(questions) * LEARNERS:,} rows, {size / 1e6:.0f} MB)")
    return [Measure("stats_vs_csv_read", mine / theirs, "<= 30", detail)]
