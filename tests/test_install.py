"""The package as an author gets it: `pip install PATH` into a fresh venv outside the repository, from a copy
of the project as a fresh clone has it (no node_modules/, no npm on PATH), then the installed command from a
content folder: new exam, new objective, validate, build --only guide, serve; and init, validate, build.

pip installs offline from the wheels `make test` gathers in .venv/wheels (every pinned package and the build
backend), so the test touches no network. Also: a copy missing a file the wheel carries fails the install in
one line saying what to do; a Python without the dependencies gets one line, exit 2.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import ROOT, TODAY
from tests.kit.serve import Serving
from tests.kit.studysite import missing

WHEELS = ROOT / ".venv" / "wheels"
NOT_IN_A_CLONE = shutil.ignore_patterns(".git", ".venv", "node_modules", "build", "__pycache__", ".pytest_cache", ".ruff_cache", "tmp")


def _run(*args: str | Path, cwd: Path, timeout: float = 600, path: str | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "SOURCE_DATE_EPOCH")}
    if path is not None:
        env["PATH"] = path
    return subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


def _fresh_venv(where: Path) -> Path:
    if not any(WHEELS.glob("*.whl")):
        missing(f"{WHEELS} holds no wheels: `make test` gathers them")
    venv = where / "venv"
    made = _run(sys.executable, "-m", "venv", venv, cwd=where)
    assert made.returncode == 0, made.stderr
    return venv


def _pip_install(venv: Path, project: Path) -> subprocess.CompletedProcess:
    """`pip install --no-index --find-links WHEELS .` in `project`, with only the venv's bin/ on PATH (no npm)."""
    path = str(venv / "bin")
    assert shutil.which("npm", path=path) is None and shutil.which("node", path=path) is None
    return _run(venv / "bin" / "pip", "install", "-q", "--no-index", "--find-links", WHEELS, ".", cwd=project, timeout=900, path=path)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh venv with the pipeline installed from a copy of the project as a fresh clone has it; its bin/ folder."""
    where = tmp_path_factory.mktemp("fresh")
    clone = where / "clone"
    shutil.copytree(ROOT, clone, ignore=NOT_IN_A_CLONE, symlinks=True)
    assert not (clone / "node_modules").exists() and (clone / "pipeline" / "vendor" / "ts-fsrs" / "dist" / "index.umd.js").is_file()
    venv = _fresh_venv(where)
    done = _pip_install(venv, clone)
    assert done.returncode == 0, done.stdout + done.stderr
    return venv / "bin"


def test_a_copy_missing_a_file_the_wheel_carries_fails_in_one_line_saying_what_to_do(tmp_path):
    clone = tmp_path / "clone"
    shutil.copytree(ROOT, clone, ignore=shutil.ignore_patterns(".git", ".venv", "node_modules", "build", "__pycache__", "tests", "sources"))
    (clone / "pipeline" / "vendor" / "ts-fsrs" / "LICENSE").unlink()
    done = _pip_install(_fresh_venv(tmp_path), clone)
    assert done.returncode != 0
    lines = [line.strip() for line in (done.stdout + done.stderr).splitlines() if "the wheel needs" in line]
    assert lines == [f"error: the wheel needs pipeline/vendor/ts-fsrs/LICENSE, missing from {clone}: restore it "
                     "(`git checkout -- .` in a clone, or download the project again)"]
    assert "Traceback" not in done.stdout + done.stderr


def test_a_fresh_install_runs_the_authors_sequence_from_a_content_folder(installed, tmp_path):
    content = tmp_path / "my-content"
    content.mkdir()
    command = installed / "exam-prep"
    steps = [("new", "exam", "demo-ml", "--today", TODAY), ("new", "objective", "demo-ml", "1.1", "Model development", "--today", TODAY),
             ("validate", "--today", TODAY), ("build", "--only", "guide", "--today", TODAY)]
    for step in steps:
        done = _run(command, *step, cwd=content)
        assert done.returncode == 0, f"{step}\n{done.stdout}\n{done.stderr}"
    assert sorted(p.name for p in (content / "build" / "demo-ml").iterdir()) == ["study-guide.pdf"]
    assert (content / "build" / "demo-ml" / "study-guide.pdf").read_bytes().startswith(b"%PDF")
    schema_line = (content / "sources" / "demo-ml" / "exam.yaml").read_text(encoding="utf-8").splitlines()[0]
    assert Path(content / "sources" / "demo-ml", schema_line.split("$schema=")[1]).resolve().is_file()  # editors find the schema

    serving = Serving.command([str(command), "serve", "--port", "0", "--today", TODAY], content)
    try:
        url = serving.wait_for(re.compile(r"serve: demo-ml at (http://127\.0\.0\.1:\d+/)"))[1]
        with urllib.request.urlopen(url, timeout=60) as answer:
            page = answer.read()
        assert answer.status == 200 and b"/__serve/livereload.js" in page and b"Not built yet" not in page  # the site, built
        assert (content / "build" / "demo-ml" / "site" / "assets" / "ts-fsrs.js").is_file()  # the wheel carries the npm package
        with urllib.request.urlopen(url + "__serve/study-guide.pdf", timeout=600) as answer:
            assert answer.headers["Content-Type"] == "application/pdf" and answer.read().startswith(b"%PDF")
    finally:
        assert serving.stop() == 0


def test_a_fresh_install_inits_a_content_folder_that_validates_and_builds_every_output(installed, tmp_path):
    """The README's quick start from the wheel, offline: `exam-prep init demo && cd demo && exam-prep validate && exam-prep build`."""
    command = installed / "exam-prep"
    made = _run(command, "init", "demo", "--today", TODAY, cwd=tmp_path)
    assert made.returncode == 0, made.stdout + made.stderr
    demo = tmp_path / "demo"
    for step in (("validate", "--today", TODAY), ("build", "--today", TODAY)):
        done = _run(command, *step, cwd=demo)
        assert done.returncode == 0, f"{step}\n{done.stdout}\n{done.stderr}"
    assert sorted(p.name for p in (demo / "build" / "first-exam").iterdir()) == [
        "bank.json", "canvas-qti.zip", "deck-changes.json", "deck.apkg", "moodle.xml", "qti21.zip", "questions.gift", "site", "study-guide.pdf"]
    schema_line = (demo / "sources" / "first-exam" / "exam.yaml").read_text(encoding="utf-8").splitlines()[0]
    target = (demo / "sources" / "first-exam" / schema_line.split("$schema=")[1]).resolve()
    assert target == demo / "schemas" / "exam.schema.json" and target.is_file()  # in the folder, not the venv's site-packages


def test_the_installed_command_is_the_module_and_names_itself(installed, tmp_path):
    as_command = _run(installed / "exam-prep", "--version", cwd=tmp_path)
    as_module = _run(installed / "python", "-m", "pipeline", "--version", cwd=tmp_path)
    assert as_command.stdout.replace("exam-prep", "") == as_module.stdout.replace("python -m pipeline", "")
    assert as_command.stdout.startswith("exam-prep ") and as_module.stdout.startswith("python -m pipeline ")


def test_a_python_without_the_dependencies_gets_one_line_and_exit_2(tmp_path):
    done = _run(sys._base_executable, "-S", "-m", "pipeline", "validate", cwd=ROOT)  # -S: no site-packages at all
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.splitlines()
    assert re.match(r"error: the Python package '[\w.-]+' is missing \(this Python cannot import '\w+'\): install the pipeline", line)
    assert "Traceback" not in done.stderr


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~\[; ]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-").replace(".", "-")


def test_every_runtime_requirement_is_a_dependency_of_the_package():
    """requirements.in (what `make build` installs) and pyproject's dependencies (what `pip install .` installs)
    name the same packages: a pin added to one alone passes every test run from .venv and fails a fresh install."""
    import tomllib
    listed = {_name(line) for line in (ROOT / "requirements.in").read_text(encoding="utf-8").splitlines() if line.strip() and not line.startswith("#")}
    declared = {_name(r) for r in tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]}
    assert len(listed) > 20
    assert listed == declared
