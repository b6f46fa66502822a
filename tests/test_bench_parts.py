"""The bench's parts still fit the code they time: each part's own steps run here at a small size on a
fixture exam (the timings themselves are `make bench`'s, never asserted). Two parts once broke unseen
after renames (the guide's registry name, the questions' parts) and only `make bench` found out."""

from __future__ import annotations

import csv
import math

from bench import build as build_bench
from bench import stats as stats_bench
from bench.synthetic import make_exam
from tests.conftest import FULL


def test_the_build_part_reads_the_guide_from_a_real_probe(tmp_path):
    run = build_bench.probe(make_exam(tmp_path / "sources", 1, sample=FULL / "nca-genm"), tmp_path / "out")
    assert build_bench.GUIDE_OUTPUT in run["seconds"] and run["guide_pages"] > 1 and run["peak_kib"] > 0
    measures = build_bench.guide_measures(run, run)
    assert [m.key for m in measures] == ["guide_100x_peak_gib", "guide_100x_vs_1x_per_page"]
    assert all(math.isfinite(m.value) and m.value > 0 for m in measures)


def test_the_stats_part_writes_answers_stats_reads_back(tmp_path):
    sources = make_exam(tmp_path / "sources", 1, sample=FULL / "nca-genm")
    questions = stats_bench.items_of(sources)
    assert len(questions) >= 10
    path = tmp_path / "answers.csv"
    stats_bench.answers(path, questions, learners=40)
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 40 * len(questions) and {r["question_id"] for r in rows} == {q.id for q in questions}
    keyed = {q.id: "|".join(o.id for o in q.parts[0].options if o.correct) for q in questions}
    right = sum(r["response"] == keyed[r["question_id"]] for r in rows)
    assert 0 < right < len(rows)  # the draw gives right and wrong answers
    run = stats_bench.ours(sources, path)  # in a process of its own, as the bench runs it
    assert run["items"] == len(questions) and run["answers"] == len(rows) and run["peak"] > 0  # every row matched a question
    assert stats_bench.engine_read(path) > 0
