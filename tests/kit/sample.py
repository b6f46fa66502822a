"""The frozen sample exam (tests/fixtures/full): its objective files, and edits made to a copy of one at a YAML
path (a value rewritten, a key renamed), each returning the line it changed."""

from __future__ import annotations

from pathlib import Path

from pipeline.load.yamlsource import load_yaml
from tests.conftest import FULL

OBJECTIVES = sorted((FULL / "nca-genm").rglob("6.*.yaml"))


def set_value(file: Path, path: tuple, value: str) -> int:
    """Rewrite the value at `path` (a block scalar's continuation lines too); return its 1-based line."""
    key = load_yaml(file).keys[path]
    lines = file.read_text(encoding="utf-8").splitlines(keepends=True)
    index, indent = key.line - 1, key.col - 1
    prefix = lines[index][:indent]
    end = index + 1
    while end < len(lines) and (not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip(" ")) > indent):
        end += 1  # lines of a multi-line value belong to it
    lines[index:end] = [f"{prefix}{path[-1]}: {value}\n"]
    file.write_text("".join(lines), encoding="utf-8")
    return key.line


def rename_key(file: Path, path: tuple, new_key: str) -> int:
    key = load_yaml(file).keys[path]
    lines = file.read_text(encoding="utf-8").splitlines(keepends=True)
    line = lines[key.line - 1]
    lines[key.line - 1] = line[: key.col - 1] + new_key + line[key.col - 1 + len(str(path[-1])):]
    file.write_text("".join(lines), encoding="utf-8")
    return key.line


def first_path(file: Path, predicate) -> tuple:
    """The path of the first question in `file` that `predicate(question_dict)` accepts."""
    doc = load_yaml(file)
    index = next(i for i, q in enumerate(doc.data["questions"]) if predicate(q))
    return ("questions", index)


def copy_of(full_copy: Path, original: Path) -> Path:
    return full_copy / original.relative_to(FULL)
