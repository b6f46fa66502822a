"""The benchmarks' synthetic exam is a valid sources folder, without a warning, `scale` times the exam it copies
(here the fixture exam; `make bench` copies the sample)."""

from __future__ import annotations

import datetime as dt

from bench.synthetic import make_exam
from pipeline.check.validate import validate
from tests.conftest import FULL, TODAY


def test_synthetic_exam_is_valid_and_scales(tmp_path):
    sample = validate(FULL, dt.date.fromisoformat(TODAY)).exams[0]
    result = validate(make_exam(tmp_path / "sources", 3, sample=FULL / "nca-genm"), dt.date.fromisoformat(TODAY))
    # the frozen copy's two cloze marks whose objective title shows their answer and its one key point with an
    # unbacked figure (the live sample fixed them), in each copy
    assert [d.format() for d in result.report.items if d.code not in ("item-answer-in-context", "number-unbacked")] == []
    assert len(result.report.items) == 3 * (2 + 1)
    content = result.exams[0]
    assert [s.number for s in content.exam.sections] == [1, 2, 3]
    assert len(content.questions()) == 3 * len(sample.questions())
    assert len(content.terms()) == 3 * len(sample.terms())


def test_the_largest_bench_exam_file_is_valid(tmp_path):
    """`make bench` builds a 100x exam: its exam.yaml (100 sections) must pass the schema's limits too."""
    from pipeline.load.yamlsource import load_yaml
    from schema.models import Exam

    sources = make_exam(tmp_path / "sources", 100, sample=FULL / "nca-genm")
    exam = Exam.model_validate(load_yaml(sources / "synthetic" / "exam.yaml").data)  # raises on any schema error
    assert [s.number for s in exam.sections] == list(range(1, 101))
