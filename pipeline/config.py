"""The project's settings file, `pipeline.toml` in the folder the pipeline runs from (the project root).

Only settings that belong to the project rather than to one run live here; today that is `allow_hosts`,
the non-public hosts `audit` and `check-quote` may fetch from (see `pipeline.citations.netpolicy`):

    allow_hosts = ["docs.internal.example", "127.0.0.1:8000"]

A missing file means no settings; a broken one is a usage error naming the file, line and column. It
is read within bounds like any file handed to the pipeline: at most MAX_BYTES, nested at most MAX_DEPTH
arrays and inline tables (tomllib recurses, so a deeper file would end in a RecursionError).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from pipeline.errors import UsageError

CONFIG = Path("pipeline.toml")
MAX_BYTES = 1_000_000
MAX_DEPTH = 16
# comments and strings (basic, literal, multi-line) skipped whole, so only real brackets are counted
_STRUCTURE = re.compile(r"#[^\n]*|'{3}.*?'{3}|\"{3}(?:\\.|[^\\])*?\"{3}|'[^'\n]*'|\"(?:\\.|[^\"\\\n])*\"|[\[\]{}]", re.DOTALL)


def load(path: Path = CONFIG) -> dict:
    try:
        with open(path, "rb") as handle:
            text = handle.read(MAX_BYTES + 1).decode("utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}:1:1: error: cannot read the settings file ({exc})") from None
    if len(text) > MAX_BYTES:
        raise UsageError(f"{path}:1:1: error: the settings file is over {MAX_BYTES:,} bytes; it holds a few lines")
    _check_depth(path, text)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line, col = _place(str(exc), text)
        raise UsageError(f"{path}:{line}:{col}: error: invalid TOML: {str(exc).split(' (at')[0]}") from None


def _check_depth(path: Path, text: str) -> None:
    """A usage error at the bracket that opens level MAX_DEPTH + 1."""
    depth = 0
    for match in _STRUCTURE.finditer(text):
        token = match[0]
        if token in ("[", "{"):
            depth += 1
            if depth > MAX_DEPTH:
                line = text.count("\n", 0, match.start()) + 1
                col = match.start() - (text.rfind("\n", 0, match.start()) + 1) + 1
                raise UsageError(f"{path}:{line}:{col}: error: invalid TOML: nested more than {MAX_DEPTH} levels deep")
        elif token in ("]", "}"):
            depth = max(0, depth - 1)


def _place(message: str, text: str) -> tuple[int, int]:
    """tomllib says "(at line L, column C)" or "(at end of document)"."""
    if where := re.search(r"at line (\d+), column (\d+)", message):
        return int(where[1]), int(where[2])
    lines = text.splitlines() or [""]
    return (len(lines), len(lines[-1]) + 1) if "end of document" in message else (1, 1)


def allow_hosts(path: Path = CONFIG) -> list[str]:
    value = load(path).get("allow_hosts", [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise UsageError(f"{path}:1:1: error: allow_hosts must be a list of strings, e.g. [\"127.0.0.1:8000\"]")
    return value
