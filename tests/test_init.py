"""`init [DIR]` (issue 35, item 5): a content folder whose first exam validates and builds every output,
shows each question type once, with pipeline.toml, .gitignore, the audit workflow and editor schemas that
survive moving the folder; it never overwrites a file. Each command is a real process (the installed
command's run of the same sequence is in tests/test_install.py)."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from pipeline import render as registry
from pipeline.cli.main import make_parser
from pipeline.questions import TYPES
from tests.conftest import ROOT, TODAY

OUTPUTS = ["bank.json", "canvas-qti.zip", "deck-changes.json", "deck.apkg", "moodle.xml", "qti21.zip", "questions.gift", "site",
           "study-guide.pdf"]  # the eight outputs (the deck writes two files)


def run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-m", "pipeline", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def _schema_of(path: Path) -> Path:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# yaml-language-server: $schema="), first
    return (path.parent / first.split("$schema=")[1]).resolve()


@pytest.mark.slow  # three real processes, the last a whole build with the guide's PDF: the other init tests cover init itself
def test_init_then_validate_then_build_writes_every_output(tmp_path):
    done = run(tmp_path, "init", "demo", "--today", TODAY)
    assert done.returncode == 0, done.stderr
    demo = tmp_path / "demo"
    assert done.stderr.splitlines()[-1] == "next: cd demo && python -m pipeline validate && python -m pipeline build; then open build/first-exam/site/index.html"
    checked = run(demo, "validate", "--today", TODAY)
    assert checked.returncode == 0 and ": error: " not in checked.stdout, checked.stdout
    built = run(demo, "build", "--today", TODAY)
    assert built.returncode == 0, built.stdout + built.stderr
    assert sorted(p.name for p in (demo / "build" / "first-exam").iterdir()) == OUTPUTS
    assert (demo / "build" / "first-exam" / "study-guide.pdf").read_bytes().startswith(b"%PDF")


def test_the_first_exam_shows_every_question_type_once_each_commented(tmp_path):
    assert run(tmp_path, "init", "--today", TODAY).returncode == 0  # DIR defaults to the current folder
    [objective] = (tmp_path / "sources" / "first-exam").rglob("1.1-*.yaml")
    questions = yaml.safe_load(objective.read_text(encoding="utf-8"))["questions"]
    assert sorted(q["type"] for q in questions) == sorted(TYPES)
    lines = objective.read_text(encoding="utf-8").splitlines()
    for question in questions:  # the line naming each question says what its type is
        line = next(line for line in lines if line.strip().startswith(f"- id: {question['id']}"))
        assert f"# {question['type']}:" in line, line


def test_pipeline_toml_names_every_setting_commented_and_the_workflow_runs_a_real_audit(tmp_path):
    assert run(tmp_path, "init", "site", "--today", TODAY).returncode == 0
    text = (tmp_path / "site" / "pipeline.toml").read_text(encoding="utf-8")
    assert tomllib.loads(text) == {}  # every setting commented out: the defaults hold
    top = text.split("# [exams.")[0]  # the top level's settings; the per-exam table below repeats some
    uncommented = tomllib.loads("\n".join(line.removeprefix("# ") for line in top.splitlines() if " = " in line))
    assert {"outputs", "out", "strict", *registry.options()} <= set(uncommented)
    assert uncommented["outputs"] == registry.output_names()
    assert "/build/" in (tmp_path / "site" / ".gitignore").read_text(encoding="utf-8").splitlines()
    workflow = yaml.safe_load((tmp_path / "site" / ".github" / "workflows" / "audit.yml").read_text(encoding="utf-8"))
    [audit] = [s["run"] for s in workflow["jobs"]["audit"]["steps"] if s.get("run", "").startswith("exam-prep audit")]
    args = shlex.split(audit)[1:]
    assert make_parser(args).parse_args(args).new_only  # options the audit really has
    assert [s for s in workflow["jobs"]["audit"]["steps"] if "pip install" in s.get("run", "")]


def test_the_schema_lines_survive_moving_the_folder_and_new_files_use_them(tmp_path):
    assert run(tmp_path, "init", "first", "--today", TODAY).returncode == 0
    moved = tmp_path / "elsewhere" / "moved"
    moved.parent.mkdir()
    shutil.move(tmp_path / "first", moved)
    exam = moved / "sources" / "first-exam" / "exam.yaml"
    assert _schema_of(exam) == moved / "schemas" / "exam.schema.json"
    assert json.loads(_schema_of(exam).read_text(encoding="utf-8"))["title"]  # a schema, there
    assert run(moved, "new", "objective", "first-exam", "1.2", "More answers", "--today", TODAY).returncode == 0
    [new] = (moved / "sources" / "first-exam").rglob("1.2-*.yaml")
    assert _schema_of(new) == moved / "schemas" / "objective.schema.json"  # inside the folder, not the venv


def test_init_overwrites_nothing_and_writes_nothing_when_a_file_is_there(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "pipeline.toml").write_text("strict = true\n", encoding="utf-8")
    (folder / "README.md").write_text("my notes\n", encoding="utf-8")
    done = run(tmp_path, "init", "mine", "--today", TODAY)
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == ("error: mine already holds mine/pipeline.toml; init writes only into a folder without them, "
                                            "and never overwrites a file: nothing written")
    assert sorted(p.name for p in folder.iterdir()) == ["README.md", "pipeline.toml"]
    assert (folder / "pipeline.toml").read_text(encoding="utf-8") == "strict = true\n"
    (folder / "pipeline.toml").unlink()
    assert run(tmp_path, "init", "mine", "--today", TODAY).returncode == 0  # beside files it does not write, it writes
    assert (folder / "README.md").read_text(encoding="utf-8") == "my notes\n"
