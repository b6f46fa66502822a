"""Shared test helpers: build a sources folder from scenario fixtures, copy the sample, run the CLI."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from pipeline.cli import main

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
SAMPLE = ROOT / "sources"
TODAY = "2026-11-29"


@dataclass
class Run:
    code: int
    out: str
    err: str

    @property
    def lines(self) -> list[str]:
        return self.out.splitlines()


@pytest.fixture
def run_cli(capsys, monkeypatch):
    """Run `python -m pipeline ARGS` in-process from `cwd`, so printed paths are relative to it."""

    def run(*args: str, cwd: Path | None = None) -> Run:
        if cwd is not None:
            monkeypatch.chdir(cwd)
        code = main(list(args))
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    return run


@pytest.fixture
def make_sources(tmp_path):
    """A sources folder with one exam `demo`: exam.yaml from fixtures/exams, objective files from fixtures/objectives."""

    def make(*objectives: str, exam: str = "valid") -> Path:
        folder = tmp_path / "sources" / "demo"
        folder.mkdir(parents=True)
        shutil.copy(FIXTURES / "exams" / f"{exam}.yaml", folder / "exam.yaml")
        for name in objectives:
            shutil.copy(FIXTURES / "objectives" / f"{name}.yaml", folder / f"{name}.yaml")
        return tmp_path / "sources"

    return make


@pytest.fixture
def sample_copy(tmp_path) -> Path:
    """A copy of the committed sample sources, to break on purpose."""
    target = tmp_path / "sources"
    shutil.copytree(SAMPLE, target)
    return target
