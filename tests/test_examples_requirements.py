"""A hostile content repository's requirements: an sdist or a wheel named as a requirement, a requirements
file that is a link to a secret. Each is refused at validate (at its line, exit 1), pip never builds or
installs the local file, and the secret is never printed. The sdist is real: its in-tree build backend
writes a marker file the moment pip runs it, so a marker that never appears means no backend ran."""

from __future__ import annotations

import io
import os
import tarfile

import pytest

from pipeline.examples.environments import EnvironmentFailed, Environments
from pipeline.examples.sandbox import Sandbox
from tests.kit.examples import example_yaml, make_wheel, objective_file, write_exam

DAY = "2026-11-30"
SDIST = "evil-1.0.tar.gz"
WHEEL = "demo_pkg-1.0-py3-none-any.whl"
PLAIN = example_yaml("1.1-plain", "print('plain')", "plain")


def _sdist(folder, marker) -> None:
    """evil-1.0.tar.gz: a source archive whose build backend (in the archive, needing nothing from an index)
    writes `marker` as soon as pip imports it."""
    files = {
        "evil-1.0/pyproject.toml": '[build-system]\nrequires = []\nbuild-backend = "backend"\nbackend-path = ["."]\n'
                                   '[project]\nname = "evil"\nversion = "1.0"\n',
        "evil-1.0/backend.py": f"import pathlib\npathlib.Path({str(marker)!r}).write_text('the build backend ran')\n"
                               "def get_requires_for_build_wheel(config_settings=None):\n    return []\n",
    }
    with tarfile.open(folder / SDIST, "w:gz") as archive:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))


@pytest.fixture
def no_index(tmp_path, monkeypatch):
    """pip offline: no index, and an empty folder of wheels, so only a local file could be installed."""
    empty = tmp_path / "no-wheels"
    empty.mkdir()
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(empty))


def _line_of(path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text().split("\n"), start=1) if needle in line)


def test_an_sdist_named_as_a_requirement_is_refused_at_validate_and_never_built(run_cli, tmp_path, no_index):
    marker = tmp_path / "MARKER"
    write_exam(tmp_path, [PLAIN], exam_extra=f"examples:\n  requirements: [{SDIST}]\n")
    for folder in (tmp_path, tmp_path / "sources" / "demo"):  # where pip would look: the working folder
        _sdist(folder, marker)
    checked = run_cli("validate", "--sources", "sources", "--today", DAY, cwd=tmp_path)
    line = _line_of(tmp_path / "sources" / "demo" / "exam.yaml", SDIST)
    assert checked.code == 1
    assert any(f"sources/demo/exam.yaml:{line}:" in row and f"examples.requirements[0]: '{SDIST}' is not valid; expected a package name"
               in row for row in checked.lines), checked.out
    ran = run_cli("examples", "--sources", "sources", "--today", DAY, cwd=tmp_path)
    assert ran.code == 1 and "examples: running" not in ran.err
    assert not marker.exists()


def test_a_wheel_named_as_an_examples_requirement_is_refused_at_its_line(run_cli, tmp_path, no_index):
    write_exam(tmp_path, [example_yaml("1.1-wheel", "import demo_pkg\nprint(demo_pkg.VALUE)", "42", requirements=f"[{WHEEL}]")])
    make_wheel(tmp_path)
    checked = run_cli("validate", "--sources", "sources", "--today", DAY, cwd=tmp_path)
    line = _line_of(objective_file(tmp_path), WHEEL)
    assert checked.code == 1
    assert any(f"sources/demo/1-basics/1.1-counting.yaml:{line}:" in row and f"examples[0].requirements[0]: '{WHEEL}' is not valid" in row
               for row in checked.lines), checked.out
    ran = run_cli("examples", "--sources", "sources", "--today", DAY, cwd=tmp_path)
    assert ran.code == 1 and "examples: running" not in ran.err


@pytest.mark.parametrize("requirement", [SDIST, WHEEL, "demo-pkg==1.0.tar.gz"])
def test_an_environment_never_installs_a_local_file_even_past_the_schema(tmp_path, monkeypatch, no_index, requirement):
    """Defence in depth: asked directly for a requirement written like a file, with that file in the working
    folder, the environments build nothing (no backend run, no wheel installed)."""
    marker = tmp_path / "MARKER"
    _sdist(tmp_path, marker)
    make_wheel(tmp_path)
    (tmp_path / "demo-pkg==1.0.tar.gz").write_bytes((tmp_path / SDIST).read_bytes())
    monkeypatch.chdir(tmp_path)
    environments = Environments(tmp_path / "envs", Sandbox().python, environ=os.environ)
    with pytest.raises(EnvironmentFailed, match="not a requirement from the package index"):
        environments.get((requirement,))
    assert not marker.exists()
    assert environments.built == 0


def test_a_requirements_file_that_links_outside_is_refused_and_never_printed(run_cli, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "shadow").write_text("root:$6$SECRET-HASH-LINE:19000:0:99999:7:::\n")
    write_exam(tmp_path, [PLAIN], exam_extra="examples: {requirements_file: example-requirements.txt}\n")
    (tmp_path / "sources" / "demo" / "example-requirements.txt").symlink_to(outside / "shadow")
    result = run_cli("validate", "--sources", "sources", "--today", DAY, cwd=tmp_path)
    line = _line_of(tmp_path / "sources" / "demo" / "exam.yaml", "requirements_file")
    assert result.code == 1
    assert any(row.startswith(f"sources/demo/exam.yaml:{line}:") and "examples.requirements_file: example-requirements.txt cannot be used: "
               "it is a symbolic link" in row and row.endswith("[example-requirements]") for row in result.lines), result.out
    assert "SECRET" not in result.out + result.err
    ran = run_cli("examples", "--sources", "sources", "--today", DAY, cwd=tmp_path)
    assert ran.code == 1 and "SECRET" not in ran.out + ran.err


def test_a_bad_line_of_a_requirements_file_is_named_by_its_number_not_printed(run_cli, tmp_path):
    write_exam(tmp_path, [PLAIN], exam_extra="examples: {requirements_file: example-requirements.txt}\n")
    (tmp_path / "sources" / "demo" / "example-requirements.txt").write_text(f"numpy==2.4.6\n{SDIST}\nTOKEN-abc123 --hash=x\n")
    result = run_cli("validate", "--sources", "sources", "--today", DAY, cwd=tmp_path)
    assert result.code == 1
    flagged = [row for row in result.lines if row.startswith("sources/demo/example-requirements.txt:")]
    assert [row.split(":")[1] for row in flagged] == ["2", "3"]
    assert all("this line is not a requirement from the package index (not shown)" in row for row in flagged)
    assert SDIST not in result.out and "TOKEN-abc123" not in result.out + result.err
