"""Advice names the command the way the author ran this one: `exam-prep ...` after `pip install`,
`python -m pipeline ...` from a checkout, the Makefile's target (`make audit ARGS="--exam demo"`) under make;
the locks' `about` fields name the installed command, never a Makefile a pip user does not have.

Each way is a real process: the installed console script, `python -m pipeline`, and `make validate` in the
checkout (the Makefile exports EXAM_PREP_RUN_BY=make to its runs).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.citations.lock import ABOUT as CITATIONS_ABOUT
from pipeline.examples.lock import ABOUT as EXAMPLES_ABOUT
from pipeline.stats.store import ABOUT as STATS_ABOUT
from pipeline.text import prog
from tests.conftest import ROOT, TODAY
from tests.kit.examples import EXAM, example_yaml

OBJECTIVE = """\
id: "1.1"
title: Counting
summary: How to count.
reviewed: 2026-11-01
key_points:
  - id: 1.1-one
    text: Counting starts at one.
    citations:
      - {url: "https://example.com/count", title: Counting, quote: "Counting starts at one."}
  - id: 1.1-two
    text: Two follows one.
    citations:
      - {url: "https://example.com/two", title: Two, quote: "Two follows one."}
questions:
  - {id: 1.1-q1, type: true_false, stem: Counting starts at one., answer: true, explanation: It does., key_points: [1.1-one]}
examples:
"""


@pytest.fixture
def sources(tmp_path) -> Path:
    """An exam with two unchecked quotes (advice: audit --exam demo) and a never-run example (advice: examples)."""
    folder = tmp_path / "sources" / "demo"
    folder.mkdir(parents=True)
    (folder / "exam.yaml").write_text(EXAM, encoding="utf-8")
    (folder / "1.1.yaml").write_text(OBJECTIVE + example_yaml("1.1-hello", "print('hi')", "hi"), encoding="utf-8")
    return tmp_path / "sources"


def _advice(argv: list[str], cwd: Path, **env: str) -> str:
    environment = {k: v for k, v in os.environ.items() if k not in ("EXAM_PREP_RUN_BY", "MAKEFLAGS", "MAKELEVEL", "ARGS")}
    done = subprocess.run(argv, cwd=cwd, env={**environment, **env}, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout + done.stderr


def _expect(text: str, examples: str, audit: str) -> None:
    assert f"has never been run; run `{examples}` to run it and record the result [example-not-run]" in text
    assert f"2 quotes not checked against their pages yet; run `{audit}` where the pages can be reached" in text


def test_the_installed_command_names_itself(sources):
    command = Path(sys.prefix) / "bin" / "exam-prep"
    text = _advice([str(command), "validate", "--sources", str(sources), "--today", TODAY], sources.parent)
    _expect(text, "exam-prep examples", "exam-prep audit --exam demo")


def test_python_dash_m_names_itself(sources):
    text = _advice([sys.executable, "-m", "pipeline", "validate", "--sources", str(sources), "--today", TODAY], sources.parent)
    _expect(text, "python -m pipeline examples", "python -m pipeline audit --exam demo")


def test_a_make_target_names_the_targets(sources):
    if not list(Path(sys.prefix).glob(".installed-*")):
        pytest.fail("make's stamp is missing: `make validate` would reinstall into this venv")
    text = _advice(["make", "-s", "validate", f"ARGS=--sources {sources} --today {TODAY}"], ROOT)
    _expect(text, "make examples", 'make audit ARGS="--exam demo"')


def test_a_verb_without_a_make_target_is_the_checkouts_command(monkeypatch):
    monkeypatch.setattr(prog, "_by_make", True)
    assert prog.command("examples", "--example", "1.1-sum", "--update") == 'make examples ARGS="--example 1.1-sum --update"'
    assert prog.command("stats", "--exam", "demo", "my answers.csv") == ".venv/bin/exam-prep stats --exam demo 'my answers.csv'"
    monkeypatch.setattr(prog, "_by_make", False)
    assert prog.command("examples", "--example", "1.1-sum", "--update") == "exam-prep examples --example 1.1-sum --update"


def test_the_locks_name_the_installed_command():
    assert CITATIONS_ABOUT.startswith("Written by `exam-prep audit`: ")
    assert EXAMPLES_ABOUT.startswith("Written by `exam-prep examples`: ")
    assert STATS_ABOUT.startswith("Written by `exam-prep stats`: ")
    assert not any("make" in about or "python -m" in about for about in (CITATIONS_ABOUT, EXAMPLES_ABOUT, STATS_ABOUT))
