"""A build's inputs are read in one place: no module below the command line reads the environment, the clock or
a lock file itself (issue 31). Only pipeline/cli/ and the one reader (pipeline/settings/reader.py) may, and only
pipeline/cli/ calls the reader; every other module is handed what it needs (pipeline/inputs/value.py). Checked
on the code by its syntax tree (the imports and the calls), and shown to fail on planted reads."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

from pipeline.paths import ROOT

ALLOWED = ("pipeline/cli/", "pipeline/settings/reader.py")
# A lock's own module defines its file's name and how to read and write it (`load`, `save`); the reader calls
# those. They may name their own file, and nothing here reads the environment or the clock either.
LOCK_FORMATS = ("pipeline/citations/lock.py", "pipeline/examples/lock.py", "pipeline/variants/lock.py",
                "pipeline/variants/unchanged.py", "pipeline/stats/store.py")
CLOCK_CLASSES = {"datetime", "date"}  # `datetime.now()`, `dt.date.today()`, `date.today()`
CLOCK_METHODS = {"now", "utcnow", "today"}
TIME_CLOCK = {"time", "time_ns"}  # time.monotonic and perf_counter measure spans, not dates: not the clock
TIME_NOW_WITHOUT_ARGUMENT = {"localtime", "gmtime", "ctime", "asctime"}  # with no argument: the clock's time
ENVIRONMENT = {"environ", "environb", "getenv", "getenvb"}
LOCK_CLASSES = {"CitationLock", "ExamplesLock", "VariantsLock"}
READER = "pipeline.settings.reader"
LOCK_FILES = ("citations.lock.json", "examples.lock.json", "variants.lock.json", "item-stats.json")


def _dotted(node: ast.AST) -> str:
    """`dt.date.today` -> "dt.date.today"; "" for anything that is not a plain dotted name."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and (base := _dotted(node.value)):
        return f"{base}.{node.attr}"
    return ""


class _Scan(ast.NodeVisitor):
    """What one module reads of the environment, the clock and the lock files, as `line: what` strings."""

    def __init__(self, lock_format: bool) -> None:
        self.found: list[str] = []
        self.lock_format = lock_format
        self.modules: dict[str, str] = {}  # local name -> the module it is bound to (`import os as o`: o -> os)
        self.names: dict[str, str] = {}  # local name -> "module.name" (`from os import environ`)

    def _add(self, node: ast.AST, what: str) -> None:
        self.found.append(f"{node.lineno}: {what}")

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._reader(node, alias.name)
            self.modules[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname else alias.name.split(".")[0]

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        self._reader(node, module)
        for alias in node.names:
            local = alias.asname or alias.name
            self._reader(node, f"{module}.{alias.name}")
            self.names[local] = f"{module}.{alias.name}"
            if module == "os" and alias.name in ENVIRONMENT:
                self._add(node, f"imports os.{alias.name}")
            if module == "time" and alias.name in TIME_CLOCK | TIME_NOW_WITHOUT_ARGUMENT:
                self._add(node, f"imports time.{alias.name}")
            if alias.name == "LOCK_NAME" and not self.lock_format:
                self._add(node, f"imports a lock's file name ({module}.LOCK_NAME)")
            if module == "pipeline.stats.store" and alias.name in ("load", "NAME") and not self.lock_format:
                self._add(node, f"imports item-stats.json's reader ({module}.{alias.name})")
            if module == "pipeline.stats" and alias.name == "store":
                self.modules[local] = "pipeline.stats.store"
        self.generic_visit(node)

    def visit_If(self, node: ast.If) -> None:
        if _dotted(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):  # names for the type checker: nothing runs
            for other in node.orelse:
                self.visit(other)
            return
        self.generic_visit(node)

    def _reader(self, node: ast.AST, module: str) -> None:
        if module == READER:
            self._add(node, f"imports the reader ({READER}): only the command line calls it, and hands its value down")

    def _module(self, name: str) -> str:
        return self.modules.get(name, self.names.get(name, ""))

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if isinstance(node.value, ast.Name) and self._module(node.value.id) == "os" and node.attr in ENVIRONMENT:
            self._add(node, f"reads os.{node.attr}")
        if node.attr == "LOCK_NAME" and not self.lock_format:
            self._add(node, f"names a lock's file ({_dotted(node)})")
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if node.id == "LOCK_NAME" and not self.lock_format and isinstance(node.ctx, ast.Load):
            self._add(node, "names a lock's file (LOCK_NAME)")

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str) and not self.lock_format and any(node.value.endswith(name) for name in LOCK_FILES) \
                and " " not in node.value:
            self._add(node, f"names a lock's file ({node.value!r})")

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        name = _dotted(func)
        parts = name.split(".") if name else []
        if isinstance(func, ast.Attribute) and func.attr in CLOCK_METHODS and len(parts) >= 2:
            owner = parts[-2]
            bound = self._module(parts[0]) if len(parts) == 2 else ""
            if owner in CLOCK_CLASSES or bound in ("datetime", "datetime.datetime", "datetime.date"):
                self._add(node, f"reads the clock ({name}())")
        time_module = len(parts) == 2 and self._module(parts[0]) == "time"
        time_name = len(parts) == 1 and self.names.get(parts[0], "").startswith("time.")
        attr = parts[-1] if parts else ""
        if (time_module or time_name) and (attr in TIME_CLOCK or (attr in TIME_NOW_WITHOUT_ARGUMENT and not node.args)
                                           or (attr == "strftime" and len(node.args) < 2)):
            self._add(node, f"reads the clock ({name}())")
        if attr == "load" and len(parts) >= 2 and not self.lock_format:
            owner = parts[-2]
            if owner in LOCK_CLASSES or self._module(owner) == "pipeline.stats.store":
                self._add(node, f"reads a lock file ({name}())")
        self.generic_visit(node)


def reads_in(path: Path, relative: str) -> list[str]:
    scan = _Scan(lock_format=relative in LOCK_FORMATS)
    scan.visit(ast.parse(path.read_text(encoding="utf-8")))
    return [f"{relative}:{line}" for line in scan.found]


def offenders(root: Path = ROOT) -> tuple[int, list[str]]:
    """(modules scanned, every read outside the allowed places)."""
    scanned, found = 0, []
    for path in sorted((root / "pipeline").rglob("*.py")):
        relative = path.relative_to(root).as_posix()
        if "__pycache__" in path.parts or relative.startswith(ALLOWED):
            continue
        scanned += 1
        found += reads_in(path, relative)
    return scanned, found


def test_no_module_below_the_command_line_reads_the_environment_the_clock_or_a_lock():
    scanned, found = offenders()
    assert scanned > 200  # the walk saw the code
    assert found == []


def test_the_reader_and_the_command_line_do_read_them():
    """The allowed places are where the reading went: were they empty, the check above would prove little."""
    reader = ROOT / "pipeline" / "settings" / "reader.py"
    read = reads_in(reader, "pipeline/somewhere.py")  # as if it were any other module
    assert any("os.environ" in r for r in read) and any("today()" in r for r in read) and any("Lock.load()" in r for r in read)


@pytest.fixture
def code_copy(tmp_path) -> Path:
    shutil.copytree(ROOT / "pipeline", tmp_path / "pipeline", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return tmp_path


PLANTED = '''"""Planted reads."""
import datetime as dt
import os
import time
from datetime import date
from os import environ as env
from pipeline.citations.lock import CitationLock
from pipeline.examples.lock import LOCK_NAME
from pipeline.stats import store
from pipeline.settings.reader import Reader

HOME = os.environ.get("HOME")
EPOCH = os.getenv("SOURCE_DATE_EPOCH")
NOW = dt.datetime.now(dt.UTC)
TODAY = date.today()
STAMP = time.time()
LOCK = CitationLock.load(".")
STATS = store.load(".")
PATH = "examples.lock.json"
'''


def test_planted_reads_fail_the_check_and_the_allowed_places_pass(code_copy):
    assert offenders(code_copy)[1] == []  # the copy passes, as the code does
    (code_copy / "pipeline" / "render" / "planted.py").write_text(PLANTED)
    (code_copy / "pipeline" / "cli" / "planted.py").write_text(PLANTED)  # the command line may
    (code_copy / "pipeline" / "settings" / "reader.py").write_text(PLANTED)  # and so may the one reader
    found = offenders(code_copy)[1]
    where = "pipeline/render/planted.py"
    assert found == [f"{where}:6: imports os.environ", f"{where}:8: imports a lock's file name (pipeline.examples.lock.LOCK_NAME)",
                     f"{where}:10: imports the reader (pipeline.settings.reader): only the command line calls it, and hands its value down",
                     f"{where}:12: reads os.environ", f"{where}:13: reads os.getenv", f"{where}:14: reads the clock (dt.datetime.now())",
                     f"{where}:15: reads the clock (date.today())", f"{where}:16: reads the clock (time.time())",
                     f"{where}:17: reads a lock file (CitationLock.load())", f"{where}:18: reads a lock file (store.load())",
                     f"{where}:19: names a lock's file ('examples.lock.json')"]


def test_what_the_check_leaves_alone(tmp_path):
    """Spans of time, dates made from text, a lock handed in and its entries read: none is a read of its own."""
    sample = tmp_path / "fine.py"
    sample.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pipeline.settings.reader import Reader\n"
                      "import time\nimport datetime as dt\nstart = time.monotonic()\nday = dt.date.fromisoformat('2026-01-01')\n"
                      "def f(inputs):\n    return inputs.citations.entry('u', 'q'), inputs.today, time.strftime('%Y', time.gmtime(0))\n")
    assert reads_in(sample, "pipeline/render/fine.py") == []
