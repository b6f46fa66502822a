"""The committed sources, whatever they hold: they validate without errors. Nothing else is asserted
about them (no counts, no ids, no dates): every other test builds its own fixture exams, so adding,
editing or removing an exam in sources/ never breaks `make test`."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import SOURCES
from tests.kit.project import project_copy

HERE = Path(__file__).resolve().parent
# the only tests that may read sources/: this one, and the README walkthrough (it runs what a reader runs)
READS_SOURCES = {"test_sources.py", "test_readme.py", "conftest.py"}


def test_sources_validate_without_errors(run_cli):
    result = run_cli("validate", cwd=SOURCES.parent)
    assert [line for line in result.lines if ": error: " in line] == []
    assert result.code == 0, result.err


def test_sources_essentials_keep_what_their_questions_test(run_cli):
    """Issue 34 item 7: whatever exams sources/ holds, their guide's exam essentials leave out no number or
    term that a question citing the key point tests (`essential-drops-tested`, a warning validate would print)."""
    result = run_cli("validate", cwd=SOURCES.parent)
    assert result.code == 0, result.err
    assert [line for line in result.lines if line.endswith("[essential-drops-tested]")] == []


def test_no_other_test_reads_sources():
    """Guards the rule above: a test that reads sources/ would break when an author changes the content."""
    pattern = re.compile(r"\bSOURCES\b|sources/nca-genm|ROOT\s*/\s*\"sources\"|Path\(\"sources\"\)")
    offenders = [p.name for p in HERE.glob("test_*.py") if p.name not in READS_SOURCES and pattern.search(p.read_text(encoding="utf-8"))]
    assert offenders == []
    # the bench's synthetic exam copies the sample unless told which exam to copy
    calls = [(p.name, line) for p in HERE.glob("test_*.py") if p.name != Path(__file__).name
             for line in p.read_text(encoding="utf-8").splitlines() if "make_exam(" in line]
    assert calls and [c for c in calls if "sample=" not in c[1]] == []


def add_copy_of_first_exam(sources: Path, new_id: str) -> Path:
    """A second exam: the first exam folder of `sources` copied under `new_id` (a number added while that
    is taken: this test also runs where an author has already added an exam), its id changed to match."""
    first = sorted(p for p in sources.iterdir() if p.is_dir())[0]
    base, n = new_id, 1
    while (sources / new_id).exists():
        n += 1
        new_id = f"{base}-{n}"
    folder = sources / new_id
    shutil.copytree(first, folder)
    exam_file = next(folder / name for name in ("exam.yaml", "exam.yml") if (folder / name).is_file())
    text = exam_file.read_text(encoding="utf-8")
    exam_file.write_text(re.sub(r"(?m)^id:.*$", f"id: {new_id}", text, count=1), encoding="utf-8")
    return folder


@pytest.mark.slow  # a copy of the project and pytest run again in a subprocess on it
def test_a_second_exam_in_sources_breaks_no_test(tmp_path):
    """In a copy of the project with a second exam added to sources/, the tests that read sources/ pass
    (every other test ignores sources/, as test_no_other_test_reads_sources checks)."""
    project = project_copy(tmp_path / "project")
    exams_before = sum(p.is_dir() for p in (project / "sources").iterdir())
    add_copy_of_first_exam(project / "sources", "second-exam")
    tests = ["tests/test_sources.py::test_sources_validate_without_errors", "tests/test_sources.py::test_no_other_test_reads_sources"]
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests], cwd=project,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 passed" in done.stdout
    listed = subprocess.run([sys.executable, "-m", "pipeline", "validate"], cwd=project, capture_output=True, text=True, timeout=600)
    assert f"validate: {exams_before + 1} exam(s)" in listed.stderr
