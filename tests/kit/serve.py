"""Helpers for the `serve` tests: a command that serves, run in a subprocess, its output collected."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

from tests.conftest import FIXTURES, ROOT, TODAY, write_found_lock

URL = re.compile(r"serve: demo at (http://127\.0\.0\.1:\d+/)")


class Serving:
    """`python -m pipeline serve` in `project`, its stderr collected by a thread."""

    def __init__(self, project: Path, *args: str, command: list[str] | None = None, env: dict[str, str] | None = None,
                 preexec_fn=None) -> None:
        env = {**(env or os.environ), "NO_COLOR": "1"}
        if command is None:
            env["PYTHONPATH"] = str(ROOT)
        else:  # an installed command: nothing of the checkout on its path
            env.pop("PYTHONPATH", None)
        argv = command or [sys.executable, "-m", "pipeline", "serve", "--port", "0", "--today", TODAY, *args]
        self.process = subprocess.Popen(argv, cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                        preexec_fn=preexec_fn)  # noqa: PLW1509 - a test's resource limit, set before exec
        self.lines: list[str] = []
        self.seen = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    @classmethod
    def command(cls, argv: list[str], cwd: Path, env: dict[str, str] | None = None) -> Serving:
        """Any command line that serves (an installed `exam-prep serve`)."""
        return cls(cwd, command=argv, env=env)

    def _read(self) -> None:
        for line in self.process.stdout:
            with self.seen:
                self.lines.append(line.rstrip("\n"))
                self.seen.notify_all()

    def wait_for(self, pattern: re.Pattern[str], timeout: float = 120) -> re.Match[str]:
        with self.seen:
            found = self.seen.wait_for(lambda: any(pattern.search(line) for line in self.lines) or self.process.poll() is not None, timeout)
            match = next((m for line in self.lines if (m := pattern.search(line))), None)
        assert found and match, "\n".join(self.lines)
        return match

    def stop(self) -> int:
        self.process.send_signal(signal.SIGINT)
        try:
            return self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise


def make_project(base: Path) -> Path:
    folder = base / "sources" / "demo"
    folder.mkdir(parents=True)
    shutil.copy(FIXTURES / "exams" / "valid.yaml", folder / "exam.yaml")
    shutil.copy(FIXTURES / "objectives" / "valid.yaml", folder / "valid.yaml")
    write_found_lock(folder)
    return base
