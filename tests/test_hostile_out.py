"""Output folders as hostile input: the pipeline deletes only what it wrote (issue 37, item 3).

A content repository's pipeline.toml naming `/some/path` or `../..`, `build --out DIR` over a user's
folder, file or `.generations/`, `stats --out` naming the sources or a user's folder: each refused
(exit 2, the folder named), and every file that was there is still there, byte for byte."""

from __future__ import annotations

import csv
import hashlib
from pathlib import Path

import pytest

from pipeline import build as build_module
from tests.kit import stats as kit

FAST_RENDERERS = {"bank": "pipeline.render.bank"}
MARKER = ".pipeline-output"  # pipeline.publish.owned.MARKER, spelled out: these tests also run against code without it


@pytest.fixture
def fast(monkeypatch):
    monkeypatch.setattr(build_module, "RENDERERS", FAST_RENDERERS)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1798156800")


def tree(folder: Path) -> dict[str, str]:
    """Every file and folder under `folder` (links not followed), by content hash: to show nothing changed."""
    found = {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() and not p.is_symlink() else "dir"
             for p in sorted(folder.rglob("*"))}
    assert found, f"{folder} holds nothing to compare"
    return found


def user_folder(path: Path) -> Path:
    """A user's folder with files of their own, one of them nested."""
    (path / "keep").mkdir(parents=True)
    (path / "notes.txt").write_text("mine\n", encoding="utf-8")
    (path / "keep" / "thesis.tex").write_text("\\section{mine}\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("setting", ["absolute", "../.."])
def test_pipeline_toml_out_outside_the_content_folder_is_refused(run_cli, make_sources, tmp_path, fast, setting):
    content = tmp_path / "a" / "b"
    content.mkdir(parents=True)
    make_sources("valid").rename(content / "sources")
    victim = user_folder(tmp_path / "demo")  # the exam's id, in the folder `out` names
    before = tree(tmp_path / "demo")
    out = str(tmp_path) if setting == "absolute" else setting
    (content / "pipeline.toml").write_text(f'out = "{out}"\n', encoding="utf-8")
    result = run_cli("build", "--sources", "sources", cwd=content)
    assert result.code == 2, result.err
    assert "pipeline.toml:1:7: error: out: expected a folder inside the content folder" in result.err
    assert "only taken from the command line: --out DIR" in result.err
    assert tree(victim) == before


def test_pipeline_toml_out_through_a_link_that_leaves_is_refused(run_cli, make_sources, tmp_path, fast):
    content = tmp_path / "content"
    content.mkdir()
    make_sources("valid").rename(content / "sources")
    victim = user_folder(tmp_path / "elsewhere" / "demo")
    before = tree(victim)
    (content / "escape").symlink_to(tmp_path / "elsewhere")
    (content / "pipeline.toml").write_text('out = "escape"\n', encoding="utf-8")
    result = run_cli("build", "--sources", "sources", cwd=content)
    assert result.code == 2 and "out: expected a folder inside the content folder" in result.err
    assert tree(victim) == before


@pytest.mark.parametrize("planted", ["folder", "file"])
def test_build_out_over_a_user_folder_holding_the_exam_name_is_refused(run_cli, make_sources, tmp_path, fast, planted):
    make_sources("valid")
    mine = user_folder(tmp_path / "mine")
    if planted == "folder":
        user_folder(mine / "demo")
    else:
        (mine / "demo").write_text("my file called demo\n", encoding="utf-8")
    before = tree(mine)
    result = run_cli("build", "--sources", "sources", "--out", "mine", cwd=tmp_path)
    assert result.code == 2, result.err
    assert result.err.strip().splitlines()[-1].startswith("error: --out mine: the folder holds files not written by the pipeline (demo, keep, notes.txt)")
    assert "nothing was removed" in result.err
    assert tree(mine) == before


@pytest.mark.parametrize("planted", ["folder", "file", "link"])
def test_a_user_entry_named_like_the_exam_in_a_build_folder_is_refused(run_cli, make_sources, tmp_path, fast, planted):
    make_sources("valid")
    assert run_cli("build", "--sources", "sources", "--out", "out", cwd=tmp_path).code == 0
    (tmp_path / "out" / "demo").unlink()
    if planted == "folder":
        user_folder(tmp_path / "out" / "demo")
    elif planted == "file":
        (tmp_path / "out" / "demo").write_text("mine\n", encoding="utf-8")
    else:
        user_folder(tmp_path / "elsewhere")
        (tmp_path / "out" / "demo").symlink_to(tmp_path / "elsewhere")
    before = tree(tmp_path / "out") | (tree(tmp_path / "elsewhere") if planted == "link" else {})
    result = run_cli("build", "--sources", "sources", "--out", "out", "--force", cwd=tmp_path)
    assert result.code == 2, result.err
    assert "out/demo is a" in result.err and "nothing was removed" in result.err
    assert tree(tmp_path / "out") | (tree(tmp_path / "elsewhere") if planted == "link" else {}) == before


def test_foreign_files_in_generations_are_never_swept(run_cli, make_sources, tmp_path, fast):
    make_sources("valid")
    mine = tmp_path / "mine"
    user_folder(mine / ".generations")
    before = tree(mine)
    result = run_cli("build", "--sources", "sources", "--out", "mine", cwd=tmp_path)
    assert result.code == 2 and "error: --out mine: the folder holds files not written by the pipeline (.generations)" in result.err
    assert tree(mine) == before
    # in a folder the pipeline made, a file put into .generations is left too (only a build's own names are swept)
    assert run_cli("build", "--sources", "sources", "--out", "out", cwd=tmp_path).code == 0
    (tmp_path / "out" / ".generations" / "notes.txt").write_text("mine\n", encoding="utf-8")
    (tmp_path / "out" / ".generations" / "demo-99").mkdir()  # what a killed build leaves: swept
    assert run_cli("build", "--sources", "sources", "--out", "out", "--force", cwd=tmp_path).code == 0
    assert (tmp_path / "out" / ".generations" / "notes.txt").read_text(encoding="utf-8") == "mine\n"
    assert not (tmp_path / "out" / ".generations" / "demo-99").exists()


@pytest.mark.parametrize("out", ["sources", ".", "sources/demo"])
def test_build_out_is_never_the_sources_folder_nor_holds_it(run_cli, make_sources, tmp_path, fast, out):
    sources = make_sources("valid")
    before = tree(sources)
    result = run_cli("build", "--sources", "sources", "--out", out, cwd=tmp_path)
    assert result.code == 2, result.err
    assert "the sources folder" in result.err and "nothing was changed" in result.err
    assert tree(sources) == before
    assert not (sources / MARKER).exists()


def test_an_earlier_build_folder_without_a_marker_is_still_used(run_cli, make_sources, tmp_path, fast):
    make_sources("valid")
    assert run_cli("build", "--sources", "sources", "--out", "out", cwd=tmp_path).code == 0
    (tmp_path / "out" / MARKER).unlink()  # as a version before markers left it
    (tmp_path / "out" / ".generations" / MARKER).unlink()
    assert run_cli("build", "--sources", "sources", "--out", "out", "--force", cwd=tmp_path).code == 0
    assert (tmp_path / "out" / MARKER).is_file()
    (tmp_path / "build" / "http-cache").mkdir(parents=True)  # what `audit` and a crash leave in build/ by default
    (tmp_path / "build" / "http-cache" / "page").write_text("cached", encoding="utf-8")
    (tmp_path / "build" / "pipeline-crash.log").write_text("Traceback", encoding="utf-8")
    assert run_cli("build", "--sources", "sources", cwd=tmp_path).code == 0
    assert (tmp_path / "build" / "http-cache" / "page").read_text(encoding="utf-8") == "cached" and (tmp_path / "build" / "demo" / "bank.json").is_file()


@pytest.fixture
def stats_exam(tmp_path):
    sources = kit.write_exam(tmp_path)
    answers = tmp_path / "answers.csv"
    with answers.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([["learner", "question_id", "response", "score", "time"],
                                      *([f"u{i}", kit.qid(j), "a", "", ""] for i in range(4) for j in range(3))])
    return sources, answers


def test_stats_out_naming_the_sources_is_refused(run_cli, stats_exam, tmp_path):
    sources, answers = stats_exam
    before = tree(sources)
    for out in ("sources", "sources/stats-demo", "."):
        result = run_cli("stats", "--sources", "sources", "--today", "2026-11-29", "--out", out, str(answers), cwd=tmp_path)
        assert result.code == 2, result.err
        assert f"error: --out {out}: " in result.err and "the sources folder" in result.err
        assert tree(sources) == before


def test_stats_out_over_a_user_folder_is_refused_and_its_own_report_replaced(run_cli, stats_exam, tmp_path):
    sources, answers = stats_exam
    mine = user_folder(tmp_path / "mine")
    before = tree(mine)
    result = run_cli("stats", "--sources", "sources", "--today", "2026-11-29", "--out", "mine", str(answers), cwd=tmp_path)
    assert result.code == 2, result.err
    assert "error: --out mine: the folder holds files not written by the pipeline (keep, notes.txt)" in result.err
    assert tree(mine) == before
    # its own report folder is replaced, again and again; a build's folder is not a report's
    for _ in range(2):
        assert run_cli("stats", "--sources", "sources", "--today", "2026-11-29", "--out", "report", str(answers), cwd=tmp_path).code == 0
    assert (tmp_path / "report" / "report.md").is_file() and (tmp_path / "report" / MARKER).is_file()
    (tmp_path / "built").mkdir()
    (tmp_path / "built" / MARKER).write_text("pipeline-output: build\n", encoding="utf-8")
    (tmp_path / "built" / "x.txt").write_text("a build's\n", encoding="utf-8")
    result = run_cli("stats", "--sources", "sources", "--today", "2026-11-29", "--out", "built", str(answers), cwd=tmp_path)
    assert result.code == 2 and "written by `build`, not `stats`" in result.err
    assert (tmp_path / "built" / "x.txt").is_file()
