"""Translating pydantic's errors into one line per offending YAML node (pipeline/load/schema_errors.py)."""

from __future__ import annotations

from pydantic import ValidationError

from pipeline.diagnostics import Position, Report
from pipeline.load.schema_errors import field_label, model_at, report_validation_error
from pipeline.load.yamlsource import load_yaml
from pipeline.questions.matching import MatchPair
from pipeline.questions.single import SingleQuestion
from schema.models import Citation, Objective

GOOD = """id: "1.1"
title: T
summary: S
reviewed: 2026-11-01
key_points:
  - id: k
    text: x
"""


def problems(tmp_path, text: str) -> list[tuple[Position, str]]:
    path = tmp_path / "o.yaml"
    path.write_text(text, encoding="utf-8")
    doc, report = load_yaml(path), Report()
    try:
        Objective.model_validate(doc.data)
    except ValidationError as exc:
        report_validation_error(exc, doc, Objective, report)
    assert all(d.code == "schema" for d in report.items)
    return [(d.position, d.message) for d in report.sorted()]


def test_a_valid_file_gives_nothing(tmp_path):
    assert problems(tmp_path, GOOD) == []


def test_field_labels_and_models_along_a_path():
    assert field_label(("key_points", 0, "citations", 1, "url")) == "key_points[0].citations[1].url"
    assert model_at(Objective, ("key_points", 0, "citations", 0)) is Citation
    assert model_at(Objective, ("questions", 2)) is None  # a question's model depends on its type
    data = {"questions": [{"type": "single"}, {"type": "matching"}, {"type": "nonsense"}]}
    assert model_at(Objective, ("questions", 0), data) is SingleQuestion
    assert model_at(Objective, ("questions", 1, "pairs", 0), data) is MatchPair
    assert model_at(Objective, ("questions", 2), data) is None
    assert model_at(Objective, ("title",)) is None


def test_a_misspelt_key_is_one_line_at_the_key_with_a_suggestion(tmp_path):
    found = problems(tmp_path, GOOD.replace("title: T", "titel: T"))
    assert found == [(Position(2, 1), "titel: unknown key 'titel'; did you mean 'title'? (expected one of: check_yourself, examples, id, key_points, labs, questions, reviewed, see, summary, terms, title)")]


def test_a_missing_key_is_reported_on_its_parent_mapping(tmp_path):
    found = problems(tmp_path, GOOD.replace("    text: x\n", ""))
    assert found == [(Position(6, 5), "key_points[0].text: required key missing (the point, in Markdown)")]


def test_a_nested_value_error_points_at_the_value(tmp_path):
    text = GOOD + "    citations:\n      - {url: 'ftp://x.example/a', title: A, quote: q}\n"
    [(position, message)] = problems(tmp_path, text)
    assert position == Position(9, 15)
    assert message == "key_points[0].citations[0].url: must be an absolute http:// or https:// address, got 'ftp://x.example/a'"


def test_a_question_is_checked_against_its_own_type_only(tmp_path):
    """One line per mistake, in the words of the question's type: not one per member of the union of types."""
    text = GOOD + "questions:\n  - {id: q, type: single, stem: s, explanation: e, answer: {a: 1}}\n"
    found = problems(tmp_path, text)
    assert [m for _, m in found] == ["questions[0].options: required key missing (the choices, in the author's order (shown shuffled unless `shuffle: false`))",
                                     "questions[0].answer: expected text, got a mapping (key: value)"]


def test_a_number_where_text_is_expected_says_to_quote_it(tmp_path):
    [(position, message)] = problems(tmp_path, GOOD.replace("title: T", "title: 1.10"))
    # what the author wrote (1.10), not what YAML made of it (1.1), and the line that keeps it
    assert (position, message) == (Position(2, 8), 'title: expected text, but 1.10 reads as the number 1.1; quote it to keep it as written: title: "1.10"')
