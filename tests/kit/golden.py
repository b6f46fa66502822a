"""Golden files: compare output with a committed file in tests/golden/; `make golden` rewrites them.

With UPDATE_GOLDEN=1 in the environment the file is (re)written instead of compared, and the diff is
reviewed like code before it is committed.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

GOLDEN_DIR = Path(__file__).resolve().parents[1] / "golden"


def assert_golden(name: str, actual: str) -> None:
    path = GOLDEN_DIR / name
    if os.environ.get("UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
        return
    assert path.is_file(), f"no golden file {path}: run `make golden` and review it"
    expected = path.read_text(encoding="utf-8")
    if actual != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True), str(path), "actual", n=2))
        raise AssertionError(f"output differs from {path.name} (run `make golden` if the change is intended):\n{diff[:6000]}")
