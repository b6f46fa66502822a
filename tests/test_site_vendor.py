"""The site ships ts-fsrs from pipeline/vendor/ (committed, so neither `pip install .` nor the build needs npm):
the committed files are npm's bytes at the version package.json pins, copied as they are with the licence beside
them; a missing file stops the build with exit 2 and says what to do; a new version rebuilds the site only."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pipeline import build
from pipeline.paths import ROOT, VENDOR
from pipeline.render import RENDERERS, vendor
from tests.conftest import FIXTURES, TODAY, write_found_lock
from tests.kit.studysite import missing

PINNED = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))["dependencies"]["ts-fsrs"]
NPM = ROOT / "node_modules" / "ts-fsrs"  # what `npm ci` installed from package-lock.json (make test runs it)


@pytest.fixture
def sources(tmp_path) -> Path:
    folder = tmp_path / "sources" / "demo"
    folder.mkdir(parents=True)
    shutil.copy(FIXTURES / "exams" / "valid.yaml", folder / "exam.yaml")
    shutil.copy(FIXTURES / "objectives" / "valid.yaml", folder / "valid.yaml")
    write_found_lock(folder)
    return tmp_path / "sources"


@pytest.fixture
def committed(tmp_path, monkeypatch) -> Path:
    """A copy of pipeline/vendor/ the build reads instead of the real one."""
    copy = tmp_path / "vendor"
    shutil.copytree(VENDOR, copy)
    monkeypatch.setattr(vendor, "VENDOR", copy)
    monkeypatch.setattr(build, "RENDERERS", {name: RENDERERS[name] for name in ("bank", "site")})
    return copy


def _build(sources: Path, out: Path, run_cli) -> object:
    return run_cli("build", "--sources", str(sources), "--out", str(out), "--today", TODAY, "-v")  # -v: a line per file written


def test_the_committed_ts_fsrs_is_npms_package_at_the_pinned_version_byte_for_byte():
    if not (NPM / "package.json").is_file():
        missing(f"{NPM} is missing: `make test` runs `npm ci`")
    assert json.loads((NPM / "package.json").read_text(encoding="utf-8"))["version"] == PINNED  # npm ci installed the pin
    assert json.loads((VENDOR / "ts-fsrs" / "package.json").read_text(encoding="utf-8"))["version"] == PINNED
    compared = vendor.COMMITTED["ts-fsrs"]
    assert set(compared) == {"package.json", "dist/index.umd.js", "LICENSE"}
    for inner in compared:
        assert (VENDOR / "ts-fsrs" / inner).read_bytes() == (NPM / inner).read_bytes(), f"{inner} differs from npm's: run `make vendor`"


def test_the_committed_ts_fsrs_is_shipped_as_it_is_with_its_licence(sources, committed, run_cli, tmp_path):
    assert _build(sources, tmp_path / "out", run_cli).code == 0
    assets = tmp_path / "out" / "demo" / "site" / "assets"
    assert (assets / "ts-fsrs.js").read_bytes() == (committed / "ts-fsrs" / "dist" / "index.umd.js").read_bytes()
    assert (assets / "ts-fsrs.LICENSE.txt").read_bytes() == (committed / "ts-fsrs" / "LICENSE").read_bytes()
    assert "MIT License" in (assets / "ts-fsrs.LICENSE.txt").read_text(encoding="utf-8")


def test_a_missing_ts_fsrs_file_stops_the_build_and_says_what_to_do(sources, committed, run_cli, tmp_path):
    (committed / "ts-fsrs" / "dist" / "index.umd.js").unlink()
    run = _build(sources, tmp_path / "out", run_cli)
    assert run.code == 2
    line = (run.err + run.out).splitlines()[-1]
    assert line == (f"error: {committed / 'ts-fsrs' / 'dist' / 'index.umd.js'} is missing, the installation is incomplete: reinstall the "
                    "pipeline (`pip install --force-reinstall exam-prep-pipeline`, or `git checkout pipeline/vendor` in a checkout)")
    assert "npm" not in line.replace("exam-prep-pipeline", "") and not (tmp_path / "out" / "demo").exists()


def test_a_changed_ts_fsrs_rebuilds_the_site_and_nothing_else(sources, committed, run_cli, tmp_path):
    out = tmp_path / "out"
    assert _build(sources, out, run_cli).code == 0
    script = committed / "ts-fsrs" / "dist" / "index.umd.js"
    script.write_bytes(script.read_bytes() + b"\n// patched\n")
    run = _build(sources, out, run_cli)
    written = [line for line in (run.out + run.err).splitlines() if line.startswith("wrote ")]
    assert any(line.endswith("site/assets/ts-fsrs.js") for line in written)
    assert not any(line.endswith("bank.json") for line in written) and "/out/demo/; unchanged: bank (inputs did not change" in run.out + run.err, run.err
    assert (out / "demo" / "site" / "assets" / "ts-fsrs.js").read_bytes().endswith(b"// patched\n")
