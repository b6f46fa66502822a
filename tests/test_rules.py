"""The offline rules on loaded content, called directly: each problem at its node, with its code."""

from __future__ import annotations

import datetime as dt
import shutil

from pipeline.check import rules
from pipeline.diagnostics import Report
from pipeline.load.loader import load_exam
from tests.conftest import FIXTURES

TODAY = dt.date(2026, 11, 29)


def _checked(tmp_path, *objectives: str, today: dt.date = TODAY) -> list[tuple[str, int, str, str]]:
    folder = tmp_path / "demo"
    folder.mkdir()
    shutil.copy(FIXTURES / "exams" / "valid.yaml", folder / "exam.yaml")
    for name in objectives:
        shutil.copy(FIXTURES / "objectives" / f"{name}.yaml", folder / f"{name}.yaml")
    report = Report()
    content = load_exam(folder, report).content()
    ctx = rules.CheckContext(today=today, max_review_age_days=180)
    for file in content.objective_files:
        rules.check_objective(file, ctx, report)
    rules.check_exam(content, ctx, report)
    return [(d.path.name, d.position.line, d.severity.value, d.code) for d in report.sorted()]


def test_the_valid_fixture_passes_every_rule(tmp_path):
    assert _checked(tmp_path, "valid") == []


def test_question_shapes_each_at_their_node(tmp_path):
    assert _checked(tmp_path, "valid", "question_shapes") == [
        ("question_shapes.yaml", 14, "error", "question-options"),
        ("question_shapes.yaml", 20, "error", "question-options"),
        ("question_shapes.yaml", 26, "error", "question-options"),
        ("question_shapes.yaml", 33, "error", "question-answer"),
        ("question_shapes.yaml", 38, "error", "schema"),
        ("question_shapes.yaml", 45, "error", "question-ref"),
    ]


def test_review_dates_future_and_stale(tmp_path):
    assert ("valid.yaml", 4, "warning", "review-stale") in _checked(tmp_path, "valid", today=dt.date(2028, 1, 1))
    assert ("valid.yaml", 4, "error", "review-future") in _checked(tmp_path / "b", "valid", today=dt.date(2026, 1, 1)) if (tmp_path / "b").mkdir() is None else False


def test_duplicates_point_at_the_second_use(tmp_path):
    found = _checked(tmp_path, "valid", "duplicate_question_id")
    assert [row for row in found if row[3] == "duplicate-id"] == [("valid.yaml", 15, "error", "duplicate-id")]


def test_uncited_key_point_and_malformed_cloze(tmp_path):
    found = _checked(tmp_path, "valid", "uncited_key_point", "malformed_cloze")
    assert ("uncited_key_point.yaml", 6, "warning", "uncited-key-point") in found
    assert ("malformed_cloze.yaml", 7, "error", "cloze") in found


def test_number_unbacked_fires_on_a_planted_key_point_only(make_sources):
    """Issue 34 item 9: each figure of a key point (30%, 4x, a count) must be stated by one of its quotes,
    an output of the objective's worked examples or its own formula; names (INT8, BF16), versions (NeMo 2.0)
    and bit widths (16-bit) are not figures. Only the planted key point warns, at its text, naming each figure."""
    import datetime as dt

    from pipeline.check.validate import validate
    from tests.conftest import TODAY

    report = validate(make_sources("valid", "numbers_backed"), dt.date.fromisoformat(TODAY)).report
    found = [d for d in report.sorted() if d.code == "number-unbacked"]
    assert [d.message.split(":")[0] for d in found] == ["key_points[0].text"]
    assert found[0].message.startswith("key_points[0].text: '3x', '40%', '12': numbers that no quote of this key point")
    assert found[0].severity.value == "warning" and "/demo/numbers_backed.yaml:7:11:" in found[0].format()


def test_figures_are_compared_by_value():
    from pipeline.check.numbers import figures, unbacked

    assert figures("about 4x smaller, 30 percent more, 1,048,576 weights, FP16 and 19-bit TF32, NeMo 2.0") == ["4x", "30 percent", "1,048,576"]
    assert unbacked("about 4x smaller", ["(4.0x smaller)"]) == [] and unbacked("about 4x smaller", ["fp32 to int8"]) == ["4x"]
    assert unbacked("1,048,576 weights", ["1048576"]) == [] and unbacked("$65{,}504$ at most", []) == []
