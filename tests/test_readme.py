"""Every command the README shows in a `sh` block runs, in a fresh copy of the project, and exits 0.

Two kinds are not run, and the README says why beside each: `make test` (it would run this test
again, inside itself) and commands that need the network (`audit`). The test fails when any other
command is left out, so the README cannot show a command that no test has run.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT
from tests.test_sources import project_copy

README = ROOT / "README.md"


def readme_commands(text: str) -> list[str]:
    """The lines of every ```sh block, comments and blank lines left out."""
    blocks = re.findall(r"^```sh\n(.*?)^```", text, flags=re.S | re.M)
    return [line.rstrip() for block in blocks for line in block.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def skipped(line: str) -> bool:
    return line.split("#")[0].strip() == "make test" or "needs the network" in line


def test_the_readme_shows_commands():
    commands = readme_commands(README.read_text(encoding="utf-8"))
    assert any("new exam" in c for c in commands) and any(c.startswith("make build") for c in commands)
    assert [c for c in commands if skipped(c)] == [c for c in commands if c.startswith("make test") or " audit " in c]


def test_every_readme_command_runs_in_a_fresh_copy(tmp_path):
    project = project_copy(tmp_path / "project")
    venv = Path(sys.prefix)
    (project / ".venv").symlink_to(venv, target_is_directory=True)  # installed already: make must not reinstall
    env = {**os.environ, "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    for inherited in ("SOURCE_DATE_EPOCH", "MAKEFLAGS", "MAKELEVEL", "MFLAGS", "ARGS"):  # a reader's shell, not `make test ARGS=...`'s
        env.pop(inherited, None)
    ran = []
    for line in readme_commands(README.read_text(encoding="utf-8")):
        if skipped(line):
            continue
        done = subprocess.run(["bash", "-c", line], cwd=project, env=env, capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, f"{line}\n{done.stdout}\n{done.stderr}"
        ran.append(line.split("#")[0].strip())
    assert "python -m pipeline build --exam demo-ml --out build" in ran
    for name in ("study-guide.pdf", "deck.apkg", "bank.json"):
        assert (project / "build" / "demo-ml" / name).stat().st_size > 0
