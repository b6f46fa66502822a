"""A memory and process limit for a whole example (every process it starts, together), where the machine
lets this pipeline make a control group.

RLIMIT_AS bounds one process's address space: eight processes of 180 MiB each pass a 256 MiB limit. A
cgroup counts them together (and the tmpfs pages they write): past `memory_mb` the kernel's OOM killer
stops one of them; past `processes` a fork fails. Which kind is used is probed once:
- `cgroup v2`: the unified hierarchy, where this process's cgroup is writable and has the `memory` and
  `pids` controllers (delegated, or as root);
- `cgroup v1`: the `memory` (and, when mounted, `pids`) hierarchies of a hybrid system, writable;
- none: the limits stay per process (RLIMIT_AS, and RLIMIT_NPROC of a uid of the example's own), and the
  report says so.
The example's processes run as another uid and cannot write the group's files, so they cannot leave it.
"""

from __future__ import annotations

import contextlib
import functools
import os
import secrets
import signal
import time
from dataclasses import dataclass
from pathlib import Path

MIB = 1 << 20


def _mounts() -> list[tuple[str, str, list[str]]]:
    """(mount point, file system type, super options) of every cgroup mount, from /proc/self/mountinfo."""
    found = []
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/mountinfo").read_text().splitlines():
            head, _, tail = line.partition(" - ")
            fstype, _, options = (tail.split() + ["", "", ""])[:3]
            if fstype in ("cgroup", "cgroup2"):
                found.append((head.split()[4], fstype, options.split(",")))
    return found


def _own_paths() -> dict[str, str]:
    """This process's cgroup per hierarchy: {"": "/a/b"} for v2, {"memory": "/x", "pids": "/"} for v1."""
    paths = {}
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, controllers, path = line.split(":", 2)
            for name in controllers.split(",") if controllers else [""]:
                paths[name] = path
    return paths


def _writable(folder: Path) -> bool:
    return folder.is_dir() and os.access(folder, os.W_OK) and os.access(folder / "cgroup.procs", os.W_OK)


def _v2_parent() -> Path | None:
    own = _own_paths().get("")
    for point, fstype, _ in _mounts():
        if fstype == "cgroup2" and own is not None:
            folder = Path(point) / own.lstrip("/")
            try:
                controllers = (folder / "cgroup.controllers").read_text().split()
            except OSError:
                continue
            if {"memory", "pids"} <= set(controllers) and _writable(folder):
                return folder
    return None


def _v1_parents() -> dict[str, Path]:
    own, found = _own_paths(), {}
    for point, fstype, options in _mounts():
        for name in ("memory", "pids"):
            if fstype == "cgroup" and name in options and name in own and _writable(Path(point) / own[name].lstrip("/")):
                found[name] = Path(point) / own[name].lstrip("/")
    return found if "memory" in found else {}


@functools.cache
def kind() -> str | None:
    """`cgroup v2`, `cgroup v1`, or None where no cgroup can be made here."""
    if _v2_parent() is not None and _trial(lambda: _make_v2(64, 8)):
        return "cgroup v2"
    if _v1_parents() and _trial(lambda: _make_v1(64, 8)):
        return "cgroup v1"
    return None


def _trial(make) -> bool:
    try:
        make().remove()
    except OSError:
        return False
    return True


@dataclass
class Group:
    """One example's cgroup (one folder per hierarchy used); `remove` once its processes are gone."""

    folders: list[Path]
    memory_events: Path  # where the kernel counts the OOM kills

    def add(self, pid: int) -> None:
        for folder in self.folders:
            (folder / "cgroup.procs").write_text(str(pid))

    def pids(self) -> set[int]:
        found: set[int] = set()
        for folder in self.folders:
            with contextlib.suppress(OSError):
                found |= {int(p) for p in (folder / "cgroup.procs").read_text().split()}
        return found

    def kill_all(self) -> None:
        """Every process in the group, including one that left the session or the uid's sight."""
        for _ in range(200):  # SIGKILL lands asynchronously: until the group is empty
            alive = self.pids()
            if not alive:
                return
            for pid in alive:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.02)

    def oom_kills(self) -> int:
        """How many of its processes the kernel killed for passing the memory limit."""
        with contextlib.suppress(OSError, ValueError):
            for line in self.memory_events.read_text().splitlines():
                key, _, value = line.partition(" ")
                if key == "oom_kill":
                    return int(value)
        return 0

    def remove(self) -> None:
        self.kill_all()
        for folder in self.folders:
            for _ in range(100):
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:  # still busy for a moment after the last process died
                    time.sleep(0.02)


PREFIX = "exam-prep-example-"
STALE_SECONDS = 3600  # a group this old and empty was left by a pipeline that was killed before removing it


def _name() -> str:
    return f"{PREFIX}{secrets.token_hex(6)}"


def _sweep_stale(parent: Path, ours: Path) -> None:
    """Remove groups of ours (by name) that are empty and over an hour older than the one just made (`ours`):
    never another's, never a live one. Ages are the file system's own times against each other, not the clock."""
    with contextlib.suppress(OSError):
        now = ours.stat().st_mtime
        for folder in parent.iterdir():
            with contextlib.suppress(OSError):
                if (folder.name.startswith(PREFIX) and folder != ours and now - folder.stat().st_mtime > STALE_SECONDS
                        and not (folder / "cgroup.procs").read_text().strip()):
                    folder.rmdir()


def _make_v2(memory_mb: int, processes: int) -> Group:
    parent = _v2_parent()
    assert parent is not None
    folder = parent / _name()
    folder.mkdir()
    _sweep_stale(parent, folder)
    try:
        (folder / "memory.max").write_text(str(memory_mb * MIB))
        with contextlib.suppress(FileNotFoundError):
            (folder / "memory.swap.max").write_text("0")
        (folder / "pids.max").write_text(str(processes))
    except OSError:
        folder.rmdir()
        raise
    return Group([folder], folder / "memory.events")


def _make_v1(memory_mb: int, processes: int) -> Group:
    folders, events = [], Path("/nonexistent")
    try:
        for name, parent in _v1_parents().items():
            folder = parent / _name()
            folder.mkdir()
            folders.append(folder)
            _sweep_stale(parent, folder)
            if name == "memory":
                events = folder / "memory.oom_control"
                (folder / "memory.limit_in_bytes").write_text(str(memory_mb * MIB))
                with contextlib.suppress(FileNotFoundError):  # memory and swap together: no swapping past it
                    (folder / "memory.memsw.limit_in_bytes").write_text(str(memory_mb * MIB))
            else:
                (folder / "pids.max").write_text(str(processes))
    except OSError:
        Group(folders, events).remove()
        raise
    return Group(folders, events)


def make(memory_mb: int, processes: int) -> Group | None:
    """A new group with these limits, of the kind this machine allows; None where it allows none."""
    found = kind()
    if found == "cgroup v2":
        return _make_v2(memory_mb, processes)
    if found == "cgroup v1":
        return _make_v1(memory_mb, processes)
    return None
