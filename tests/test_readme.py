"""Every command the README shows in a `sh` block runs as printed, in a fresh copy of the project, and exits 0.

Two kinds are not run, and the README says why beside each: `make test` (it would run this test
again, inside itself) and commands that need the network (`audit`). A command that "runs until Ctrl-C"
(`serve`) is started, must say where it serves, and is stopped with Ctrl-C (SIGINT), which must end it
with 0. The test fails when any other command is left out, so the README cannot show a command that no
test has run. `pip install` runs offline from the wheels `make test` gathers (PIP_NO_INDEX and
PIP_FIND_LINKS are pip's own settings), with HOME in the test's folder.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT
from tests.kit.project import project_copy
from tests.kit.serve import Serving
from tests.kit.studysite import missing

WHEELS = ROOT / ".venv" / "wheels"
SERVING = re.compile(r"serve: \S+ at http://127\.0\.0\.1:\d+/")

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


def runs_until_stopped(line: str) -> bool:
    return "runs until Ctrl-C" in line


def _port_free(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _serve(line: str, project: Path, env: dict[str, str]) -> None:
    """Start the command as printed, wait until it serves, stop it with Ctrl-C: it must end with 0."""
    command = line.split("#")[0].strip()
    if not _port_free(8000):  # another program has the README's default port: the same command on a free one
        command += " --port 0"
    serving = Serving.command(["bash", "-c", f"exec {command}"], project, env=env)
    serving.wait_for(SERVING)
    serving.process.send_signal(signal.SIGINT)
    assert serving.process.wait(60) == 0, "\n".join(serving.lines)


def test_every_readme_command_runs_in_a_fresh_copy(tmp_path):
    if not any(WHEELS.glob("*.whl")):
        missing(f"{WHEELS} holds no wheels: `make test` gathers them")
    project = project_copy(tmp_path / "project")
    venv = Path(sys.prefix)
    assert list(venv.glob(".installed-*")), "make's stamp is missing: make in the copy would reinstall into this venv"
    (project / ".venv").symlink_to(venv, target_is_directory=True)  # installed already: make must not reinstall
    (tmp_path / "home").mkdir()
    env = {**os.environ, "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}", "HOME": str(tmp_path / "home"),
           "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(WHEELS), "NO_COLOR": "1"}
    for inherited in ("SOURCE_DATE_EPOCH", "MAKEFLAGS", "MAKELEVEL", "MFLAGS", "ARGS", "PYTHONPATH"):  # a reader's shell
        env.pop(inherited, None)
    ran = []
    for line in readme_commands(README.read_text(encoding="utf-8")):
        if skipped(line):
            continue
        if runs_until_stopped(line):
            _serve(line, project, env)
        else:
            done = subprocess.run(["bash", "-c", line], cwd=project, env=env, capture_output=True, text=True, timeout=900)
            assert done.returncode == 0, f"{line}\n{done.stdout}\n{done.stderr}"
        ran.append(line.split("#")[0].strip())
    assert "exam-prep build --exam demo-ml --only guide,deck,bank" in ran and "exam-prep serve --exam demo-ml" in ran
    assert sorted(p.name for p in (project / "build" / "demo-ml").iterdir() if p.name != "site") == ["bank.json", "deck-changes.json", "deck.apkg", "study-guide.pdf"]
    for name in ("study-guide.pdf", "deck.apkg", "bank.json"):
        assert (project / "build" / "demo-ml" / name).stat().st_size > 0
