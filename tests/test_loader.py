"""Loading an exam folder: every file read, invalid files salvaged for the rule checks, never rendered."""

from __future__ import annotations

import shutil

from pipeline.diagnostics import Report
from pipeline.load.loader import exam_folders, load_exam, objective_paths
from tests.conftest import FIXTURES


def _exam(tmp_path, *objectives: str):
    folder = tmp_path / "demo"
    folder.mkdir()
    shutil.copy(FIXTURES / "exams" / "valid.yaml", folder / "exam.yaml")
    for name in objectives:
        shutil.copy(FIXTURES / "objectives" / f"{name}.yaml", folder / f"{name}.yaml")
    return folder


def test_objective_files_in_any_subfolder_but_not_hidden_ones(tmp_path):
    folder = _exam(tmp_path, "valid")
    (folder / "sub").mkdir()
    shutil.copy(FIXTURES / "objectives" / "valid.yaml", folder / "sub" / "again.yml")
    (folder / ".hidden").mkdir()
    (folder / ".hidden" / "x.yaml").write_text("id: x\n")
    assert [p.relative_to(folder).as_posix() for p in objective_paths(folder)] == ["sub/again.yml", "valid.yaml"]
    assert exam_folders(tmp_path) == [folder]


def test_valid_files_load_in_outline_order(tmp_path):
    report = Report()
    loaded = load_exam(_exam(tmp_path, "valid"), report)
    assert report.items == [] and [f.objective.id for f in loaded.content().objective_files] == ["1.1"]
    assert loaded.objective_files[0].partial is False


def test_an_invalid_file_is_salvaged_for_the_rules_and_marked_partial(tmp_path):
    report = Report()
    loaded = load_exam(_exam(tmp_path, "answer_not_in_options", "misspelt_key"), report)
    partial = [f for f in loaded.objective_files if f.partial]
    assert [f.path.name for f in partial] == ["misspelt_key.yaml"]
    assert [d.code for d in report.items] == ["schema"]
    kept = partial[0]
    assert kept.objective.key_points and kept.indexed("key_points")[0][0] == 0  # its valid key points stay checkable


def test_an_invalid_exam_file_leaves_no_content(tmp_path):
    folder = _exam(tmp_path, "valid")
    (folder / "exam.yaml").write_text("id: Not A Slug\n")
    report = Report()
    assert load_exam(folder, report).content() is None
    assert report.errors
