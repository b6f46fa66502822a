"""The project's settings file, `pipeline.toml` in the folder the pipeline runs from (the project root).

Only settings that belong to the project rather than to one run live here; today that is `allow_hosts`,
the non-public hosts `audit` and `check-quote` may fetch from (see `pipeline.citations.netpolicy`):

    allow_hosts = ["docs.internal.example", "127.0.0.1:8000"]

A missing file means no settings; a broken one is a usage error naming the file, line and column.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from pipeline.errors import UsageError

CONFIG = Path("pipeline.toml")


def load(path: Path = CONFIG) -> dict:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}:1:1: error: cannot read the settings file ({exc})") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line, col = _place(str(exc), text)
        raise UsageError(f"{path}:{line}:{col}: error: invalid TOML: {str(exc).split(' (at')[0]}") from None


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
