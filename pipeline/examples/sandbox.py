"""Run one example's code as hostile code: bounded in time, memory, processes, files, output and network.

Each run gets its own staging folder and subprocess, in a new session (its own process group), with a
scrubbed environment (no variable of the caller's: no token, no proxy, no PYTHONPATH) and stdin closed.
`launch.py` sets the resource limits (address space, CPU time, processes, file size, open files, no
core) before anything else runs; a wall-clock timeout kills the whole group; what it prints is read up
to a cap, past which it is killed too.

Isolation is what the machine allows, probed once (`isolation()`, and the report says which is in force):
- `namespace`: `unshare` gives the example new user, network, PID and mount namespaces: no network
  interface but its own loopback (the machine's loopback is unreachable), every process it starts dies
  with it (PID namespace), and the world-writable folders are size-capped tmpfs (`inside.py`).
- `guard`: where namespaces are refused, an audit hook in the example's interpreter refuses socket
  connections and new programs; processes are bounded by RLIMIT_NPROC and the group kill.

RLIMIT_NPROC counts the tasks of a user, and the kernel never applies it to root: run as root (as CI is),
the example gets a fresh unprivileged uid of its own (`dedicated`), so the limit counts only its tasks
and it cannot read root's files. Run as anyone else, the example keeps that uid (`own`) and the limit is
the user's current task count plus the allowance.
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

HERE = Path(__file__).resolve().parent
UNSHARE = ("--user", "--map-root-user", "--net", "--pid", "--mount", "--fork", "--kill-child", "--")
SAFE_PATH = "/usr/local/bin:/usr/bin:/bin"
SETUP_FAILED = 125  # inside.py: the namespace was made but could not be set up
MIB = 1 << 20


class SandboxError(UsageError):
    """The machine cannot give an example a sandbox (exit 2): nothing was run."""


@dataclass(frozen=True)
class Limits:
    """What one example may use. The defaults suit small CPU programs (torch included)."""

    timeout: float = 120.0  # wall-clock seconds, then the process group is killed
    memory_mb: int = 4096  # address space per process (RLIMIT_AS)
    processes: int = 64  # tasks (processes and threads) at once (RLIMIT_NPROC)
    file_mb: int = 64  # the largest file it may write (RLIMIT_FSIZE)
    disk_mb: int = 128  # each writable folder's tmpfs (namespace isolation)
    output_bytes: int = 256 * 1024  # stdout and stderr together; past it the example is killed
    open_files: int = 256

    def rlimits(self, tasks_already: int) -> dict[str, int]:
        return {"memory_bytes": self.memory_mb * MIB, "cpu_seconds": int(self.timeout) + 1,
                "processes": tasks_already + self.processes, "file_bytes": self.file_mb * MIB,
                "open_files": self.open_files, "core_bytes": 0}


@dataclass(frozen=True)
class Isolation:
    network: str  # "namespace" | "guard"
    user: str  # "dedicated" (root: a fresh unprivileged uid per run) | "own"

    @property
    def text(self) -> str:
        net = ("network namespace (no network; its own loopback only), PID and mount namespaces"
               if self.network == "namespace" else "socket guard (an audit hook refusing connections and new programs)")
        who = "a fresh unprivileged uid per example" if self.user == "dedicated" else "the caller's uid"
        return f"{net}; processes run as {who}"


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


@dataclass(frozen=True)
class Interpreter:
    """The Python that runs examples: one an unprivileged uid can execute when examples run as one."""

    path: Path
    version: str  # 3.11.2
    platform: str  # linux-x86_64

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
    probe = "import json, platform, sys; print(json.dumps([platform.python_version(), sys.platform + '-' + platform.machine()]))"
    version, plat = json.loads(subprocess.run([str(usable[0]), "-I", "-S", "-c", probe], capture_output=True, text=True, check=True).stdout)
    return Interpreter(usable[0], version, plat)


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


def _environment(work: Path) -> dict[str, str]:
    """Nothing of the caller's: a fixed PATH, HOME in the example's folder, a fixed hash seed and UTF-8."""
    return {"PATH": SAFE_PATH, "HOME": str(work), "TMPDIR": str(work), "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
            "PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1"}


class Sandbox:
    """Runs code under `limits`, isolated as `isolation` says (default: the best this machine allows)."""

    def __init__(self, limits: Limits | None = None, network: str | None = None) -> None:
        self.limits = limits or Limits()
        self.python = interpreter()
        self.user = "dedicated" if os.geteuid() == 0 else "own"
        self._network = network

    @functools.cached_property
    def isolation(self) -> Isolation:
        """Probed on first use: a run in which every example is frozen starts no sandbox at all."""
        return Isolation(self._network or _probe(self.user), self.user)

    def run(self, code: str, env_dir: Path | None = None, *, merge_stderr: bool = True, limits: Limits | None = None) -> Outcome:
        limits = limits or self.limits
        if env_dir is not None and self.user == "dedicated" and not all(os.stat(p).st_mode & stat.S_IXOTH for p in env_dir.resolve().parents):
            raise SandboxError(f"error: examples run as an unprivileged user, who cannot reach the environments in {env_dir} "
                               "(a folder above it is closed to others); pass --envs DIR in a folder others can read")
        staging = Path(tempfile.mkdtemp(prefix="example-"))
        try:
            uid = _fresh_uid() if self.user == "dedicated" else None
            work = _stage(staging, code, uid)
            argv = self._argv(staging, env_dir.resolve() if env_dir else None, limits)
            outcome = _supervise(argv, work, limits, uid, merge_stderr)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        if outcome.returncode == SETUP_FAILED and b"sandbox setup failed:" in outcome.stdout + outcome.stderr:
            said = (outcome.stdout + outcome.stderr).decode(errors="replace").strip().splitlines()[-1]
            raise SandboxError(f"error: the example sandbox could not be set up here: {said}")
        return outcome

    def _argv(self, staging: Path, env_dir: Path | None, limits: Limits) -> list[str]:
        python = str(self.python.path)
        args = ["-P", "-s", "-u"] + ([] if env_dir else ["-S"])  # no site-packages at all for a standard-library example
        rlimits = json.dumps(limits.rlimits(_own_tasks() if self.user == "own" else 0))
        head = [python, "-I", "-S", str(staging / "launch.py"), rlimits, "--"]
        if self.isolation.network == "namespace":
            config = {"staging": str(staging), "env": str(env_dir) if env_dir else None, "python": python,
                      "python_args": args, "disk_bytes": limits.disk_mb * MIB}
            return [*head, shutil.which("unshare", path=SAFE_PATH) or "unshare", *UNSHARE,
                    python, "-I", "-S", str(staging / "inside.py"), "setup", json.dumps(config)]
        example_python = str(env_dir / "bin" / "python") if env_dir else python
        return [*head, example_python, *args, str(staging / "inside.py"), "guard", "example.py"]


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
    """The staging folder (readable, not writable, by the example) and its own working folder."""
    os.chmod(staging, 0o755)
    for name in ("launch.py", "inside.py"):
        shutil.copyfile(HERE / name, staging / name)
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


def _supervise(argv: list[str], work: Path, limits: Limits, uid: int | None, merge: bool) -> Outcome:
    identity = {"user": uid, "group": uid, "extra_groups": []} if uid is not None else {}
    proc = subprocess.Popen(argv, cwd=work, env=_environment(work), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT if merge else subprocess.PIPE, start_new_session=True, close_fds=True, **identity)
    reader = _Reader(proc, limits.output_bytes)
    status, rusage, timed_out = reader.until_exit(limits.timeout)
    _kill_all(proc.pid, uid)
    if status is None:
        _, status, rusage = os.wait4(proc.pid, 0)
    reader.drain()
    proc.returncode = os.waitstatus_to_exitcode(status)
    cut = timed_out or reader.capped
    return Outcome(None if cut else proc.returncode, bytes(reader.out), bytes(reader.err), timed_out, reader.capped, rusage.ru_maxrss, uid)


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


def _kill_all(pid: int, uid: int | None) -> None:
    """The process group (in a PID namespace, that takes every process of the example with it); with a
    dedicated uid, also every process of that uid, even one that left the group with setsid()."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)
    if uid is None:
        return
    sweep = "import os, signal\ntry:\n    os.kill(-1, signal.SIGKILL)\nexcept ProcessLookupError:\n    pass"
    for _ in range(100):  # SIGKILL takes effect asynchronously: sweep until none is left alive
        if not processes_of(uid):
            return
        subprocess.run([str(interpreter().path), "-I", "-S", "-c", sweep], user=uid, group=uid, extra_groups=[],
                       env={"PATH": SAFE_PATH}, stdin=subprocess.DEVNULL, capture_output=True, check=False, timeout=30)
        time.sleep(0.05)


@functools.cache
def _probe(user: str) -> str:
    """`namespace` when a trial run in the namespaces works here, else `guard`."""
    if shutil.which("unshare", path=SAFE_PATH) is None:
        return "guard"
    try:
        outcome = Sandbox(Limits(timeout=30), network="namespace").run("print('ok')")
    except (SandboxError, OSError):  # the namespaces were refused, or could not be set up
        return "guard"
    return "namespace" if outcome.returncode == 0 and outcome.stdout.strip() == b"ok" else "guard"
