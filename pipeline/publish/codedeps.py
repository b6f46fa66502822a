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
import re
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


SHAPE_FILES = "pipeline.render.shape_files"  # the site's and the guide's way to a shape folder's templates
# An output's calls for its writers: registry.writer(part, "moodle"), registry.writers("anki_back"), writers_for("gift").
_ASKS = re.compile(r"""(?:registry\.writers?|writers_for)\((?:[^()"]*,\s*)?"([a-z0-9_]+)"\)""")


@cache
def _asked(path: Path, stamp: tuple[int, int]) -> tuple[str, ...]:
    """The registry outputs a module asks writers for (the shapes' writers are named by reference, not imported)."""
    return tuple(sorted(set(_ASKS.findall(path.read_text(encoding="utf-8")))))


def _writer_modules(output: str) -> list[str]:
    from pipeline.shapes import registry  # only when an output asks it

    return sorted({ref.partition(":")[0] for spec in registry.shapes().values() for ref in [spec.writers.get(output)] if isinstance(ref, str)})


def _folder_files() -> list[Path]:
    """The templates and scripts of the shape folders (pipeline/shapes/<name>/), which shape_files reads."""
    folders = [p for p in (ROOT / "pipeline" / "shapes").iterdir() if (p / "__init__.py").is_file()]
    return sorted(f for folder in folders for f in folder.rglob("*") if f.is_file() and f.suffix not in (".py", ".pyc") and "__pycache__" not in f.parts)


def closure(module: str) -> list[Path]:
    """The files of `module` and of every project module it imports, transitively, sorted; with the shapes'
    writers it asks the registry for (by output name) and, through shape_files, the shape folders' templates."""
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
        for output in _asked(path, (stat.st_mtime_ns, stat.st_size)):
            todo.extend(m for writer in _writer_modules(output) for m in _with_parents(writer))
    return sorted(set(seen.values()) | set(_folder_files() if SHAPE_FILES in seen else ()))


def digest(files: list[Path]) -> str:
    """The hash of the files' names (relative to the project) and bytes."""
    hashed = hashlib.sha256()
    for path in files:
        hashed.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return hashed.hexdigest()
