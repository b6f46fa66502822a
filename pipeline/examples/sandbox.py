"""Run one example's code as hostile code: in a bubblewrap sandbox, bounded in time, memory, processes,
files and output.

Each run gets its own staging folder (the code, read-only to the example) and subprocess, in a new
session (its own process group), started with nothing of the caller's environment and stdin closed.
`launch.py` waits until the run's cgroup holds it, sets the resource limits (address space, CPU time,
processes, file size, open files, no core) and execs bubblewrap (`bubblewrap.py`: what the example sees
is the interpreter, its libraries and its environment, read-only; a fresh /proc; private tmpfs at /tmp
and /dev/shm; no network but its own loopback). A wall-clock timeout kills every process of the run;
what it prints is read up to a cap, past which it is killed too. Every file it wrote is in its tmpfs,
gone with its namespaces.

Memory and processes are limited for the whole example by a cgroup where this machine lets the pipeline
make one (`cgroup.py`), else per process (RLIMIT_AS, RLIMIT_NPROC); `Isolation.text` says which. RLIMIT_NPROC
counts the tasks of a user, and the kernel never applies it to root: run as root (as CI is), the example
gets a fresh unprivileged uid of its own (`dedicated`), so the limit counts only its tasks and it cannot
read root's files; run as anyone else it keeps that uid (`own`), its limit the user's task count plus
the allowance.

Where bubblewrap cannot make a user namespace (or is missing), nothing runs: `SandboxError` (exit 2)
says what the machine lacks, unless the author allows `--unsafe-no-sandbox` (`Sandbox(unsafe=True)`),
which there runs the code as a plain process with the same limits, uid and environment, and nothing more
(an audit hook is not a sandbox, so none is pretended); where bubblewrap works, it is used regardless.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import random
import selectors
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from pipeline.errors import UsageError
from pipeline.examples import bubblewrap, cgroup
from pipeline.examples.bubblewrap import EXAMPLE_DIR, SAFE_PATH

HERE = Path(__file__).resolve().parent
MIB = 1 << 20
WORLD_WRITABLE = ("/tmp", "/var/tmp", "/run/lock", "/dev/shm")  # swept of the example's files without a sandbox


class SandboxError(UsageError):
    """The machine cannot give an example a sandbox (exit 2): nothing was run."""


class NoBubblewrap(SandboxError):
    """bubblewrap is missing or cannot make its namespaces here; `lacks` says what the machine lacks."""

    def __init__(self, lacks: str) -> None:
        super().__init__(f"error: examples run in a bubblewrap sandbox, and {lacks}; nothing was run "
                         "(--unsafe-no-sandbox runs them without a sandbox, at your own risk)")
        self.lacks = lacks


@dataclass(frozen=True)
class Limits:
    """What one example may use. The defaults suit small CPU programs (torch included)."""

    timeout: float = 120.0  # wall-clock seconds, then every process of the run is killed
    memory_mb: int = 4096  # all its processes together (a cgroup, where one can be made); and each one's address space (RLIMIT_AS)
    processes: int = 64  # tasks (processes and threads) at once (the cgroup's pids.max, and RLIMIT_NPROC)
    file_mb: int = 64  # the largest file it may write (RLIMIT_FSIZE)
    disk_mb: int = 128  # the size of each of its tmpfs (/tmp, /dev/shm)
    output_bytes: int = 256 * 1024  # stdout and stderr together; past it the example is killed
    open_files: int = 256

    def rlimits(self, tasks_already: int) -> dict[str, int]:
        return {"memory_bytes": self.memory_mb * MIB, "cpu_seconds": int(self.timeout) + 1,
                "processes": tasks_already + self.processes, "file_bytes": self.file_mb * MIB,
                "open_files": self.open_files, "core_bytes": 0}


@dataclass(frozen=True)
class Isolation:
    network: str  # "bubblewrap" | "none" (--unsafe-no-sandbox)
    user: str  # "dedicated" (root: a fresh unprivileged uid per run) | "own"
    limits: str = "per process"  # "cgroup v2" | "cgroup v1" | "per process"

    @property
    def record(self) -> str:
        """What the examples lock keeps: `bubblewrap; cgroup v1`."""
        return f"{self.network}; {self.limits}"

    @property
    def text(self) -> str:
        box = ("bubblewrap (new user, PID, network, mount and IPC namespaces; a fresh /proc; only the interpreter, its "
               "libraries and the environment visible, read-only; private /tmp and /dev/shm; no network but its own loopback)"
               if self.network == "bubblewrap" else "NO SANDBOX (--unsafe-no-sandbox): the code ran as a plain process")
        who = "a fresh unprivileged uid per example" if self.user == "dedicated" else "the caller's uid"
        bound = (f"memory and processes limited for the whole example by a {self.limits}" if self.limits.startswith("cgroup")
                 else "memory and processes limited per process only (RLIMIT_AS, RLIMIT_NPROC): no cgroup can be made here")
        return f"{box}; processes run as {who}; {bound}"


@dataclass(frozen=True)
class Outcome:
    """What one run did. `returncode` is negative for a signal, None when the run was cut (timeout, cap)."""

    returncode: int | None
    stdout: bytes
    stderr: bytes  # empty when stderr was merged into stdout
    timed_out: bool = False
    capped: bool = False
    max_rss_kb: int = 0  # the largest resident size of any of its processes
    uid: int | None = None  # the dedicated uid it ran as (None: the caller's)
    out_of_memory: bool = False  # the kernel killed one of its processes at the whole example's memory limit


@dataclass(frozen=True)
class Interpreter:
    """The Python that runs examples: one an unprivileged uid can execute when examples run as one."""

    path: Path
    version: str  # 3.11.2
    platform: str  # linux-x86_64
    dirs: tuple[str, ...] = ()  # its standard library and libpython: what the sandbox shows besides the binary

    @property
    def minor(self) -> str:
        return ".".join(self.version.split(".")[:2])


def _world_usable(path: Path) -> bool:
    """Can a uid that owns nothing here execute `path` and read its standard library?"""
    def reachable(p: Path, bits: int) -> bool:
        try:
            return all(os.stat(parent).st_mode & stat.S_IXOTH for parent in p.parents) and os.stat(p).st_mode & bits == bits
        except OSError:
            return False
    lib = path.parent.parent / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}"
    return reachable(path, stat.S_IROTH | stat.S_IXOTH) and reachable(lib, stat.S_IROTH | stat.S_IXOTH)


PROBE = """\
import glob, json, os, platform, sys, sysconfig
paths = sysconfig.get_paths()
libdir = sysconfig.get_config_var("LIBDIR") or ""
dirs = sorted({paths["stdlib"], paths["platstdlib"], *glob.glob(os.path.join(libdir, "libpython*.so*"))})
print(json.dumps([platform.python_version(), sys.platform + "-" + platform.machine(), dirs]))
"""


@functools.cache
def interpreter() -> Interpreter:
    """This Python's base interpreter, or the system's of the same version when a dedicated uid cannot run it
    (e.g. a Python under /root): examples need the standard library of this pipeline's Python version."""
    name = f"python{sys.version_info.major}.{sys.version_info.minor}"
    candidates = [Path(getattr(sys, "_base_executable", sys.executable)).resolve()]
    if (found := shutil.which(name, path=SAFE_PATH)) is not None:
        candidates.append(Path(found).resolve())
    usable = [c for c in candidates if os.geteuid() != 0 or _world_usable(c)]
    if not usable:
        raise SandboxError(f"error: examples run as an unprivileged user, who cannot run {candidates[0]}; "
                           f"install the system's {name} (Debian: apt-get install {name}) or one outside /root")
    version, plat, dirs = json.loads(subprocess.run([str(usable[0]), "-I", "-S", "-c", PROBE], capture_output=True, text=True, check=True).stdout)
    return Interpreter(usable[0], version, plat, tuple(dirs))


def _own_tasks() -> int:
    """Tasks (threads included) of this real uid now: RLIMIT_NPROC counts them all."""
    uid, total = os.getuid(), 0
    for entry in Path("/proc").iterdir():
        try:
            status = (entry / "status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        if int(fields.get("Uid", "-1 0").split()[0]) == uid:
            total += int(fields.get("Threads", "1"))
    return total


def _environment(home: str) -> dict[str, str]:
    """Nothing of the caller's: a fixed PATH, HOME in the example's folder, a fixed hash seed and UTF-8."""
    return {"PATH": SAFE_PATH, "HOME": home, "TMPDIR": home, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
            "PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1"}


class Sandbox:
    """Runs code under `limits` in bubblewrap (or, with `unsafe`, as a plain process), as `isolation` says."""

    def __init__(self, limits: Limits | None = None, *, unsafe: bool = False) -> None:
        self.limits = limits or Limits()
        self.python = interpreter()
        self.user = "dedicated" if os.geteuid() == 0 else "own"
        self.unsafe = unsafe  # allowed to run without a sandbox where bubblewrap cannot run (--unsafe-no-sandbox)
        self.unsafe_reason = ""  # why it does, when it does

    @functools.cached_property
    def isolation(self) -> Isolation:
        """Probed on first use (a run in which every example is frozen starts no sandbox at all); raises
        SandboxError where bubblewrap cannot run here, unless `unsafe` allows running without it."""
        bounds = cgroup.kind() or "per process"
        try:
            _probe(self.user)
        except NoBubblewrap as exc:
            if not self.unsafe:
                raise
            self.unsafe_reason = exc.lacks
            return Isolation("none", self.user, bounds)
        return Isolation("bubblewrap", self.user, bounds)

    def run(self, code: str, env_dir: Path | None = None, *, merge_stderr: bool = True, limits: Limits | None = None) -> Outcome:
        limits = limits or self.limits
        isolation = self.isolation
        if env_dir is not None and self.user == "dedicated" and not all(os.stat(p).st_mode & stat.S_IXOTH for p in env_dir.resolve().parents):
            raise SandboxError(f"error: examples run as an unprivileged user, who cannot reach the environments in {env_dir} "
                               "(a folder above it is closed to others); pass --envs DIR in a folder others can read")
        return _run(self.python, isolation, code, env_dir.resolve() if env_dir else None, limits, merge_stderr)


def _run(python: Interpreter, isolation: Isolation, code: str, env_dir: Path | None, limits: Limits, merge: bool) -> Outcome:
    staging = Path(tempfile.mkdtemp(prefix="example-"))
    uid = _fresh_uid() if isolation.user == "dedicated" else None
    try:
        work = _stage(staging, code, uid)
        tasks = _own_tasks() if uid is None else 0
        head = [str(python.path), "-I", "-S", str(staging / "launch.py"), json.dumps(limits.rlimits(tasks))]
        args = ["-P", "-s", "-u"] + ([] if env_dir else ["-S"])  # no site-packages at all for a standard-library example
        if isolation.network == "bubblewrap":
            inner = bubblewrap.argv(python.path, python.dirs, staging / "example.py", env_dir, args, _environment(EXAMPLE_DIR), limits.disk_mb * MIB)
            outcome = _supervise(head, inner, staging, {"PATH": SAFE_PATH}, limits, uid, merge)
        else:
            example_python = str(env_dir / "bin" / "python") if env_dir else str(python.path)
            outcome = _supervise(head, [example_python, *args, "example.py"], work, _environment(str(work)), limits, uid, merge)
            if uid is not None:
                _sweep_files(uid)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return outcome


def processes_of(uid: int) -> list[int]:
    """The pids of every live process (zombies aside: they hold nothing) whose real uid is `uid`."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            fields = dict(line.split(":", 1) for line in (entry / "status").read_text().splitlines() if ":" in line)
        except OSError:
            continue
        if fields.get("Uid", "").split()[:1] == [str(uid)] and not fields.get("State", "").strip().startswith("Z"):
            found.append(int(entry.name))
    return found


def _fresh_uid() -> int:
    """A uid no account has (above any distribution's range), so that RLIMIT_NPROC counts this example alone."""
    return random.SystemRandom().randrange(1 << 30, (1 << 31) - 2)


def _stage(staging: Path, code: str, uid: int | None) -> Path:
    """The staging folder (readable, not writable, by the example) and its own working folder (used
    without a sandbox; bubblewrap gives the example a tmpfs instead)."""
    os.chmod(staging, 0o755)
    shutil.copyfile(HERE / "launch.py", staging / "launch.py")
    (staging / "example.py").write_text(code, encoding="utf-8")
    for child in staging.iterdir():
        os.chmod(child, 0o644)
    work = staging / "work"
    work.mkdir(mode=0o700)
    shutil.copyfile(staging / "example.py", work / "example.py")
    if uid is not None:
        os.chown(work, uid, uid)
        os.chown(work / "example.py", uid, uid)
    return work


def _supervise(head: list[str], inner: list[str], cwd: Path, env: dict[str, str], limits: Limits, uid: int | None, merge: bool) -> Outcome:
    """Start `head` (launch.py), which waits until the run's cgroup holds it, then sets the limits and execs `inner`."""
    identity = {"user": uid, "group": uid, "extra_groups": []} if uid is not None else {}
    group = cgroup.make(limits.memory_mb, limits.processes)
    go_read, go_write = os.pipe()
    try:
        proc = subprocess.Popen([*head, str(go_read), "--", *inner], cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT if merge else subprocess.PIPE, start_new_session=True, close_fds=True,
                                pass_fds=(go_read,), **identity)
        os.close(go_read)
        try:
            if group is not None:
                group.add(proc.pid)
            os.write(go_write, b"g")
        except OSError:  # not placed: launch.py reads no byte and runs nothing; reap it before saying so
            os.close(go_write)
            proc.wait()
            raise
        os.close(go_write)
        reader = _Reader(proc, limits.output_bytes)
        status, rusage, timed_out = reader.until_exit(limits.timeout)
        _kill_all(proc.pid, uid, group)
        if status is None:
            _, status, rusage = os.wait4(proc.pid, 0)
        reader.drain()
        out_of_memory = group is not None and group.oom_kills() > 0
    finally:
        if group is not None:
            group.remove()
    proc.returncode = os.waitstatus_to_exitcode(status)
    cut = timed_out or reader.capped
    return Outcome(None if cut else proc.returncode, bytes(reader.out), bytes(reader.err), timed_out, reader.capped, rusage.ru_maxrss, uid,
                   out_of_memory)


class _Reader:
    """Reads a child's pipes without blocking, up to a cap, while watching for its exit and the deadline."""

    def __init__(self, proc: subprocess.Popen, cap: int) -> None:
        self.proc, self.cap, self.capped = proc, cap, False
        self.out, self.err = bytearray(), bytearray()
        self.selector = selectors.DefaultSelector()
        for pipe, buffer in ((proc.stdout, self.out), (proc.stderr, self.err)):
            if pipe is not None:
                os.set_blocking(pipe.fileno(), False)
                self.selector.register(pipe, selectors.EVENT_READ, buffer)

    def until_exit(self, timeout: float):
        """(wait status, rusage, timed out): the status is None when the run was cut before it exited."""
        deadline = time.monotonic() + timeout
        while True:
            pid, status, rusage = os.wait4(self.proc.pid, os.WNOHANG)
            if pid:
                return status, rusage, False
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None, None, True
            self._read(min(remaining, 0.2))
            if self.capped:
                return None, None, False

    def _read(self, wait: float) -> None:
        for key, _ in self.selector.select(wait):
            try:
                chunk = os.read(key.fd, 65536)
            except BlockingIOError:
                continue
            if not chunk:
                self.selector.unregister(key.fileobj)
                continue
            room = self.cap - len(self.out) - len(self.err)
            key.data.extend(chunk[:max(room, 0)])
            if len(chunk) > room:
                self.capped = True
                return

    def drain(self) -> None:
        """What is left in the pipes once every process is gone (bounded by the cap)."""
        for _ in range(1000):
            if not self.selector.get_map() or self.capped:
                break
            self._read(0.05)
        self.selector.close()
        for pipe in (self.proc.stdout, self.proc.stderr):
            if pipe is not None:
                pipe.close()


def _kill_all(pid: int, uid: int | None, group: cgroup.Group | None) -> None:
    """The process group (bwrap's PID namespace takes every process of the example with it), the cgroup's
    processes, and with a dedicated uid every process of that uid, even one that left the group with setsid()."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)
    if group is not None:
        group.kill_all()
    if uid is None:
        return
    sweep = "import os, signal\ntry:\n    os.kill(-1, signal.SIGKILL)\nexcept ProcessLookupError:\n    pass"
    for _ in range(100):  # SIGKILL takes effect asynchronously: sweep until none is left alive
        if not processes_of(uid):
            return
        subprocess.run([str(interpreter().path), "-I", "-S", "-c", sweep], user=uid, group=uid, extra_groups=[],
                       env={"PATH": SAFE_PATH}, stdin=subprocess.DEVNULL, capture_output=True, check=False, timeout=30)
        time.sleep(0.05)


def _sweep_files(uid: int) -> None:
    """Without a sandbox: what the example's own uid left in the world-writable folders (it owns nothing else)."""
    for folder in WORLD_WRITABLE:
        with contextlib.suppress(OSError):
            for entry in os.scandir(folder):
                with contextlib.suppress(OSError):
                    if entry.stat(follow_symlinks=False).st_uid == uid:
                        if entry.is_dir(follow_symlinks=False):
                            shutil.rmtree(entry.path, ignore_errors=True)
                        else:
                            os.unlink(entry.path)


@functools.cache
def _probe(user: str) -> None:
    """Raise SandboxError, saying what the machine lacks, unless a trial run in bubblewrap prints `ok`."""
    if bubblewrap.executable() is None:
        raise NoBubblewrap("bubblewrap is not installed here (Debian: apt-get install bubblewrap)")
    isolation = Isolation("bubblewrap", user, cgroup.kind() or "per process")
    outcome = _run(interpreter(), isolation, "print('ok')", None, Limits(timeout=30), True)
    if outcome.returncode == 0 and outcome.stdout.strip() == b"ok":
        return
    said = [line for line in outcome.stdout.decode(errors="replace").splitlines() if line.startswith("bwrap:")]
    lacks = ("this machine does not let bubblewrap create a user namespace (user namespaces disabled, or "
             "/proc/sys/user/max_user_namespaces is 0)" if any("namespace" in line for line in said) else "bubblewrap could not start here")
    raise NoBubblewrap(f"{lacks}: {said[-1] if said else outcome.stdout[-200:]!r}")
