"""The site ships ts-fsrs from node_modules/ (pinned in package.json): copied as it is, its licence beside it; a missing
or different package stops the build with exit 2 and says what to run; a new version of it rebuilds the site only."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pipeline import build
from pipeline.paths import NODE_MODULES, PACKAGE_JSON
from pipeline.render import RENDERERS, vendor
from tests.conftest import FIXTURES, TODAY, write_found_lock

PINNED = json.loads(PACKAGE_JSON.read_text(encoding="utf-8"))["dependencies"]["ts-fsrs"]


@pytest.fixture
def sources(tmp_path) -> Path:
    folder = tmp_path / "sources" / "demo"
    folder.mkdir(parents=True)
    shutil.copy(FIXTURES / "exams" / "valid.yaml", folder / "exam.yaml")
    shutil.copy(FIXTURES / "objectives" / "valid.yaml", folder / "valid.yaml")
    write_found_lock(folder)
    return tmp_path / "sources"


@pytest.fixture
def modules(tmp_path, monkeypatch) -> Path:
    """A copy of node_modules/ts-fsrs the build reads instead of the real one."""
    copy = tmp_path / "node_modules"
    shutil.copytree(NODE_MODULES / "ts-fsrs", copy / "ts-fsrs")
    monkeypatch.setattr(vendor, "NODE_MODULES", copy)
    monkeypatch.setattr(build, "RENDERERS", {name: RENDERERS[name] for name in ("bank", "site")})
    return copy


def _build(sources: Path, out: Path, run_cli) -> object:
    return run_cli("build", "--sources", str(sources), "--out", str(out), "--today", TODAY)


def test_the_pinned_ts_fsrs_is_shipped_as_it_is_with_its_licence(sources, modules, run_cli, tmp_path):
    assert _build(sources, tmp_path / "out", run_cli).code == 0
    assets = tmp_path / "out" / "demo" / "site" / "assets"
    assert (assets / "ts-fsrs.js").read_bytes() == (modules / "ts-fsrs" / "dist" / "index.umd.js").read_bytes()
    assert "MIT License" in (assets / "ts-fsrs.LICENSE.txt").read_text(encoding="utf-8")
    assert json.loads((modules / "ts-fsrs" / "package.json").read_text(encoding="utf-8"))["version"] == PINNED


def test_a_missing_ts_fsrs_stops_the_build_and_says_what_to_run(sources, modules, run_cli, tmp_path):
    shutil.rmtree(modules / "ts-fsrs")
    run = _build(sources, tmp_path / "out", run_cli)
    assert run.code == 2
    assert f"error: the study site needs ts-fsrs {PINNED} from npm, and {modules / 'ts-fsrs'} is missing: run `npm ci`" in run.err + run.out
    assert "`make build` does" in run.err + run.out and not (tmp_path / "out" / "demo").exists()


def test_another_version_of_ts_fsrs_stops_the_build(sources, modules, run_cli, tmp_path):
    meta = modules / "ts-fsrs" / "package.json"
    meta.write_text(json.dumps({**json.loads(meta.read_text(encoding="utf-8")), "version": "0.0.1"}), encoding="utf-8")
    run = _build(sources, tmp_path / "out", run_cli)
    assert run.code == 2 and f"is version 0.0.1, package.json pins {PINNED}: run `npm ci`" in run.err + run.out


def test_a_changed_ts_fsrs_rebuilds_the_site_and_nothing_else(sources, modules, run_cli, tmp_path):
    out = tmp_path / "out"
    assert _build(sources, out, run_cli).code == 0
    script = modules / "ts-fsrs" / "dist" / "index.umd.js"
    script.write_bytes(script.read_bytes() + b"\n// patched\n")
    run = _build(sources, out, run_cli)
    written = [line for line in (run.out + run.err).splitlines() if line.startswith("wrote ")]
    assert any(line.endswith("site/assets/ts-fsrs.js") for line in written)
    assert not any(line.endswith("bank.json") for line in written) and "demo: unchanged: bank (inputs did not change" in run.out + run.err
    assert (out / "demo" / "site" / "assets" / "ts-fsrs.js").read_bytes().endswith(b"// patched\n")
