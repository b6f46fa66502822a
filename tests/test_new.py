"""`new exam` and `new objective`: skeletons that validate as written, point editors at the schema,
and never overwrite an author's file."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema

from pipeline.load.yamlsource import load_yaml
from tests.conftest import ROOT, TODAY

SCHEMA_DIR = ROOT / "schema"


def scaffold(run_cli, tmp_path: Path) -> tuple[Path, Path]:
    (tmp_path / "sources").mkdir()
    assert run_cli("new", "exam", "demo-ml", "--today", TODAY, cwd=tmp_path).code == 0
    assert run_cli("new", "objective", "demo-ml", "1.2", "Model development", "--today", TODAY, cwd=tmp_path).code == 0
    exam = tmp_path / "sources" / "demo-ml" / "exam.yaml"
    return exam, next((tmp_path / "sources" / "demo-ml").rglob("1.2-model-development.yaml"))


def test_skeletons_validate_with_warnings_only_their_placeholders_and_the_unchecked_quote(run_cli, tmp_path):
    scaffold(run_cli, tmp_path)
    result = run_cli("validate", "--today", TODAY, cwd=tmp_path)
    assert result.code == 0, result.out
    others = [line.split(": warning: ")[1] for line in result.lines if not line.endswith("[placeholder]")]
    assert others == [
        "key_points[0].citations[0].quote: quote not checked against its page yet; run `exam-prep audit` where the page can be reached [citation-unchecked]"]


def test_skeletons_carry_the_schema_line_and_match_the_json_schema(run_cli, tmp_path):
    for path, name in zip(scaffold(run_cli, tmp_path), ("exam", "objective"), strict=True):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("# yaml-language-server: $schema=")
        schema_path = Path(path.parent, first.split("$schema=")[1])
        schema = json.loads(schema_path.read_text(encoding="utf-8"))
        assert schema_path.resolve() == SCHEMA_DIR / f"{name}.schema.json"
        jsonschema.validate(load_yaml(path).data, schema, format_checker=jsonschema.FormatChecker())


def test_objective_file_goes_into_its_section_folder_with_the_title(run_cli, tmp_path):
    exam, objective = scaffold(run_cli, tmp_path)
    assert objective.relative_to(exam.parent).as_posix() == "1/1.2-model-development.yaml"  # the section's title is still TODO
    data = load_yaml(objective).data
    assert (data["id"], data["title"], data["reviewed"]) == ("1.2", "Model development", TODAY)


def test_nothing_is_overwritten(run_cli, tmp_path):
    exam, objective = scaffold(run_cli, tmp_path)
    exam.write_text(exam.read_text() + "# the author's edit\n")
    again = run_cli("new", "exam", "demo-ml", cwd=tmp_path)
    assert (again.code, again.err.strip()) == (1, "error: sources/demo-ml already exists; nothing written")
    assert exam.read_text().endswith("# the author's edit\n")
    twice = run_cli("new", "objective", "demo-ml", "1.2", "Model development", cwd=tmp_path)
    assert twice.code == 1 and "already exists; nothing written" in twice.err


def test_an_objective_needs_its_exam(run_cli, tmp_path):
    (tmp_path / "sources").mkdir()
    result = run_cli("new", "objective", "nope", "1.1", "Title", cwd=tmp_path)
    assert result.code != 0
    assert "error: no exam 'nope' in sources: run `exam-prep new exam nope` first" in result.err


def test_the_folder_is_named_from_the_sections_real_title_and_reused(run_cli, tmp_path):
    exam, first = scaffold(run_cli, tmp_path)
    exam.write_text(exam.read_text().replace('"TODO: section title", weight: 0', "Model Development & Tuning, weight: 20")
                    + "  - {number: 2, title: Data Engineering, weight: 30}\n", encoding="utf-8")
    assert run_cli("new", "objective", "demo-ml", "2.1", "Pipelines", cwd=tmp_path).code == 0
    assert (exam.parent / "2-data-engineering" / "2.1-pipelines.yaml").is_file()
    assert run_cli("new", "objective", "demo-ml", "1.3", "Tuning", cwd=tmp_path).code == 0
    assert (first.parent / "1.3-tuning.yaml").is_file()  # section 1 has a folder already: the same one


def test_an_undeclared_section_is_refused_with_the_closest(run_cli, tmp_path):
    exam, _ = scaffold(run_cli, tmp_path)
    result = run_cli("new", "objective", "demo-ml", "2.1", "Pipelines", cwd=tmp_path)
    assert result.code == 1
    assert result.err.strip() == ("error: section 2 is not declared in sources/demo-ml/exam.yaml (declared: 1 TODO: section title); "
                                  "did you mean 1.1? To add it, write `- {number: 2, title: ..., weight: ...}` under `sections:` first")
    assert not (exam.parent / "2").exists()
