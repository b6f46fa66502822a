"""A report, not a test: which modules of pipeline/ the selected tests never call into.

Run it on the fast set, `python -m pytest -m "not browser and not slow" -p tests.kit.reach`: at the end it
lists every module of pipeline/ in which no selected test called a function (in this process: code a test
runs in a subprocess is not seen, so such a module shows up here too). Importing a module runs its body, and
the CLI imports nearly all of them, so only calls to functions count, not the module bodies. A module listed
here is tested only by `slow` or `browser` tests (or by none): `make test-fast` would not notice a break in it.
It traces every call, so its run is slower than the timed one; it is never on during a timed run.
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "pipeline"
_PREFIX = str(PACKAGE) + "/"
_seen_code: set = set()  # code objects already looked at: most calls return after one set lookup
_called: set[str] = set()  # files of pipeline/ in which a function ran


def _trace(frame, event, arg):
    code = frame.f_code
    if code in _seen_code:
        return None
    _seen_code.add(code)
    if code.co_name != "<module>" and code.co_filename.startswith(_PREFIX):
        _called.add(code.co_filename)
    return None  # no line events: the call is all this report needs


def pytest_configure(config):
    sys.settrace(_trace)
    threading.settrace(_trace)  # the serve and HTTP tests call pipeline code from server threads


def _has_functions(path: Path) -> bool:
    return any(line.lstrip().startswith(("def ", "async def ")) for line in path.read_text(encoding="utf-8").splitlines())


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    sys.settrace(None)
    threading.settrace(None)
    modules = sorted(p for p in PACKAGE.rglob("*.py") if "vendor" not in p.parts)
    assert modules, f"no modules under {PACKAGE}"  # the report below must have looked at something
    unreached = [p for p in modules if str(p) not in _called and _has_functions(p)]
    bodies = [p for p in modules if not _has_functions(p)]
    write = terminalreporter.write_line
    terminalreporter.section("pipeline modules the selected tests never call into")
    write(f"{len(modules)} modules, {len(modules) - len(unreached) - len(bodies)} called into, "
          f"{len(bodies)} without functions (constants, re-exports), {len(unreached)} never called:")
    for path in unreached:
        write(f"  {path.relative_to(PACKAGE.parent)}")
