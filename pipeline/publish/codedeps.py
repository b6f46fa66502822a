"""Which of the project's code an output depends on: its renderer module's imports, transitively.

An output's bytes are made by its renderer and whatever that imports; the rest of the view's making is
hashed as the view itself (`incremental.view_text`). So an output's code digest covers the import closure
of its module within pipeline/ and schema/ (parent packages included: importing `a.b.c` runs `a` and
`a.b` first), read statically from each file's `import` statements, and an edit to the deck's code
rebuilds the deck alone. Imports under `if TYPE_CHECKING:` count too: cheap to over-count, never
under-count.
"""

from __future__ import annotations

import ast
import hashlib
from functools import cache
from pathlib import Path

from pipeline.paths import CODE_DIRS, ROOT

PACKAGES = tuple(folder.name for folder in CODE_DIRS)  # ("pipeline", "schema"): the project's own code


def module_file(name: str) -> Path | None:
    """The file of a project module (`a.b` -> a/b.py or a/b/__init__.py); None outside the project."""
    if name.split(".")[0] not in PACKAGES:
        return None
    base = ROOT.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _with_parents(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts) + 1)]


def _package_of(name: str, path: Path) -> str:
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


@cache
def _imports(name: str, path: Path, stamp: tuple[int, int]) -> tuple[str, ...]:
    """The project modules `name` (at `path`) imports; `stamp` (mtime, size) keys the cache to the file's state."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_bytes(), filename=str(path))):
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the package, `level - 1` packages up
                package = _package_of(name, path).split(".")
                base = ".".join([*package[: len(package) - node.level + 1], *([base] if base else [])])
            found.append(base)
            found.extend(f"{base}.{alias.name}" for alias in node.names)  # a submodule, when it is one
    return tuple(sorted({m for m in found if m and module_file(m) is not None}))


def closure(module: str) -> list[Path]:
    """The files of `module` and of every project module it imports, transitively, sorted."""
    seen: dict[str, Path] = {}
    todo = _with_parents(module)
    while todo:
        name = todo.pop()
        path = module_file(name)
        if name in seen or path is None:
            continue
        seen[name] = path
        stat = path.stat()
        for imported in _imports(name, path, (stat.st_mtime_ns, stat.st_size)):
            todo.extend(_with_parents(imported))
    return sorted(set(seen.values()))


def digest(files: list[Path]) -> str:
    """The hash of the files' names (relative to the project) and bytes."""
    hashed = hashlib.sha256()
    for path in files:
        hashed.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return hashed.hexdigest()
