"""Fixture exams with worked examples that need only the standard library, and a loopback canary server.

Tests never read sources/ and never need torch: each builds its own exam here, and runs its examples in
the real sandbox (real subprocesses, real namespaces or guard).
"""

from __future__ import annotations

import base64
import hashlib
import socket
import textwrap
import threading
import zipfile
from pathlib import Path

EXAM = """\
# the exam of the examples tests
id: demo
code: DEMO-1
title: Demo exam
vendor: Acme
exam_page: https://example.com/exam
reviewed: 2026-11-01
review_policy: {max_age_days: 180}
sections:
  - {number: 1, title: Basics, weight: 40}
"""

OBJECTIVE_HEAD = """\
# An objective with worked examples.
id: "1.1"
title: Counting
summary: How to count.
reviewed: 2026-11-01
key_points:
  - id: 1.1-count
    text: Counting starts at one.
    citations:
      - {url: "https://example.com/count", title: Counting, quote: "Counting starts at one."}
questions:
  - id: 1.1-q1
    type: true_false
    stem: Counting starts at one.
    answer: true
    explanation: It does.
    key_points: [1.1-count]
examples:
"""


def example_yaml(example_id: str, code: str, output: str, **extra: str) -> str:
    """One example as the YAML an author writes: literal blocks for code and output, a comment above."""
    lines = [f"  # example {example_id}", f"  - id: {example_id}", f"    title: Example {example_id}", "    code: |"]
    lines += ["      " + line if line else "" for line in textwrap.dedent(code).strip("\n").split("\n")]
    lines += ["    output: |-"] + ["      " + line if line else "" for line in output.split("\n")]
    lines += [f"    {key}: {value}" for key, value in extra.items()]
    return "\n".join(lines) + "\n"


def write_exam(root: Path, examples: list[str], exam_extra: str = "") -> Path:
    """sources/demo with exam.yaml and one objective file holding `examples`; returns the sources folder."""
    folder = root / "sources" / "demo"
    (folder / "1-basics").mkdir(parents=True, exist_ok=True)
    (folder / "exam.yaml").write_text(EXAM + exam_extra, encoding="utf-8")
    objective_file(root).write_text(OBJECTIVE_HEAD + "".join(examples) + "# the end\n", encoding="utf-8")
    return root / "sources"


def objective_file(root: Path) -> Path:
    return root / "sources" / "demo" / "1-basics" / "1.1-counting.yaml"


def make_wheel(folder, name: str = "demo_pkg", version: str = "1.0"):
    """A real, minimal wheel made here: pip installs it from a local folder, no index, no network."""
    dist = f"{name}-{version}.dist-info"
    files = {f"{name}/__init__.py": "VALUE = 42\n",
             f"{dist}/METADATA": f"Metadata-Version: 2.1\nName: {name.replace('_', '-')}\nVersion: {version}\n",
             f"{dist}/WHEEL": "Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
    digest = {k: base64.urlsafe_b64encode(hashlib.sha256(v.encode()).digest()).rstrip(b"=").decode() for k, v in files.items()}
    files[f"{dist}/RECORD"] = "".join(f"{k},sha256={digest[k]},{len(v)}\n" for k, v in files.items()) + f"{dist}/RECORD,,\n"
    path = folder / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        for member, text in files.items():
            archive.writestr(member, text)
    return path


class Canary:
    """A TCP server on 127.0.0.1 that counts the connections it accepts: a sandboxed example must make none."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.accepted = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except (TimeoutError, OSError):
                continue
            self.accepted += 1
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self.sock.close()
