"""The sandbox against hostile examples, in real subprocesses: each is stopped, reported, and leaves nothing
behind. Counted, never timed: forks made, bytes written, connections received, processes left.

The sandbox is bubblewrap; each attack runs in the isolation modes this machine offers: as root (a fresh
uid per example, limits by cgroup where one can be made) and, where the attack is about the caller's own
secrets, as an unprivileged user too (`tests.kit.sandbox.as_unprivileged`). The refusal where no user
namespace can be made is tested on a real such namespace (`max_user_namespaces` exhausted)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid

import pytest

from pipeline.examples import cgroup
from pipeline.examples.sandbox import Limits, Sandbox, processes_of
from tests.kit.examples import Canary, example_yaml, write_exam
from tests.kit.sandbox import UnixCanary, as_unprivileged

SMALL = Limits(timeout=5, memory_mb=512, processes=24, file_mb=4, disk_mb=16, output_bytes=64 * 1024)


@pytest.fixture
def sandbox():
    return Sandbox(SMALL)


@pytest.fixture
def canary():
    server = Canary()
    yield server
    server.close()


def _left_behind(outcome) -> list[int]:
    return processes_of(outcome.uid) if outcome.uid is not None else []


def test_the_canary_counts_a_connection_made_outside_the_sandbox(canary):
    socket.create_connection(("127.0.0.1", canary.port), timeout=5).close()
    for _ in range(100):
        if canary.accepted:
            break
        time.sleep(0.05)
    assert canary.accepted == 1  # so a 0 below means the sandbox stopped the connection


def test_a_connection_to_loopback_never_reaches_the_machine(sandbox, canary):
    code = f"""
import socket
try:
    socket.create_connection(("127.0.0.1", {canary.port}), timeout=3)
    print("connected")
except OSError as exc:
    print("refused:", type(exc).__name__)
"""
    outcome = sandbox.run(code)
    assert outcome.returncode == 0
    assert outcome.stdout.decode().startswith("refused:"), outcome.stdout
    assert canary.accepted == 0


def test_a_ctypes_connect_and_sendto_never_reach_the_machine(sandbox, canary):
    """libc's socket/connect/sendto called directly (what an audit hook never sees)."""
    code = f"""
import ctypes, socket, struct
libc = ctypes.CDLL(None, use_errno=True)
addr = struct.pack("!HH4s8x", socket.AF_INET, {canary.port}, socket.inet_aton("127.0.0.1"))
addr = struct.pack("=H", socket.AF_INET) + addr[2:]
fd = libc.socket(socket.AF_INET, socket.SOCK_STREAM, 0)
print("connect", libc.connect(fd, addr, len(addr)), ctypes.get_errno() != 0)
udp = libc.socket(socket.AF_INET, socket.SOCK_DGRAM, 0)
print("sendto", libc.sendto(udp, b"x", 1, 0, addr, len(addr)))
"""
    outcome = sandbox.run(code)
    lines = outcome.stdout.decode().split("\n")
    assert outcome.returncode == 0, outcome.stdout
    assert lines[0] == "connect -1 True"  # ECONNREFUSED: its own loopback has no such server
    assert canary.accepted == 0


def test_no_shell_or_other_program_runs(sandbox, tmp_path):
    """os.system, libc's system() by ctypes, _posixsubprocess.fork_exec and subprocess of /bin/sh (what an
    audit hook never sees, or refuses only at the Python level): the sandbox holds no shell at all."""
    code = """
import _posixsubprocess, ctypes, os, subprocess
try:
    print("system", os.system("echo ran-a-shell"))
except Exception as exc:
    print("system refused", type(exc).__name__)
print("libc system", ctypes.CDLL(None).system(b"echo ran-a-shell"))
try:
    subprocess.run(["/bin/sh", "-c", "echo ran-a-shell"])
except OSError as exc:
    print("subprocess", type(exc).__name__)
r, w = os.pipe()  # the error pipe: an exec that fails says so there, and the child exits 255
pid = _posixsubprocess.fork_exec([b"/bin/sh", b"-c", b"echo ran-a-shell"], [b"/bin/sh"], True, (w,), None, None,
                                 -1, -1, -1, -1, -1, -1, r, w, True, False, -1, None, None, None, -1, None, True)
os.close(w)
print("fork_exec", os.waitpid(pid, 0)[1] >> 8, os.read(r, 100).split(b":")[0].decode())
print(sorted(os.listdir("/")))
"""
    outcome = sandbox.run(code)
    printed = outcome.stdout.decode()
    assert outcome.returncode == 0, printed
    assert "ran-a-shell" not in printed
    assert "system 32512" in printed and "libc system 32512" in printed  # exit status 127: no /bin/sh to run
    assert "subprocess FileNotFoundError" in printed
    assert "fork_exec 255 OSError" in printed
    assert printed.strip().split("\n")[-1] == "['dev', 'etc', 'lib', 'lib64', 'proc', 'tmp', 'usr']"


def test_a_host_unix_socket_is_unreachable_by_path_or_abstract_name(sandbox):
    with UnixCanary() as server:
        code = f"""
import socket
for name, address in (("path", {server.path!r}), ("abstract", {server.abstract!r})):
    s = socket.socket(socket.AF_UNIX)
    try:
        s.connect(address)
        print(name, "connected")
    except OSError as exc:
        print(name, type(exc).__name__)
"""
        outcome = sandbox.run(code)
        printed = outcome.stdout.decode()
        assert outcome.returncode == 0, printed
        assert "connected" not in printed and printed.count("Error") == 2
        assert server.accepted == 0


def test_the_machines_processes_are_not_in_its_proc(sandbox):
    secret = f"SECRET-ARGUMENT-{uuid.uuid4().hex}"
    host = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", secret])
    try:
        code = f"""
import os
seen = 0
for pid in os.listdir("/proc"):
    if pid.isdigit():
        seen += 1
        try:
            if {secret!r}.encode() in open(f"/proc/{{pid}}/cmdline", "rb").read():
                print("found it in", pid)
        except OSError:
            pass
print("processes", seen)
"""
        outcome = sandbox.run(code)
    finally:
        host.kill()
        host.wait()
    printed = outcome.stdout.decode()
    assert outcome.returncode == 0, printed
    assert "found it" not in printed and secret not in printed
    assert 0 < int(printed.split()[-1]) <= 3  # bwrap's init, the example (and a short-lived helper at most)


ENV_PROBE = """
import os
found = [k for k, v in os.environ.items() if "{secret}" in v]
read = []
for pid in dict.fromkeys(["1", "self"] + [p for p in os.listdir("/proc") if p.isdigit()]):
    try:
        environ = open(f"/proc/{{pid}}/environ", "rb").read()
    except OSError:
        continue
    read.append(pid)
    if b"{secret}" in environ:
        found.append(pid)
    if pid == "1":
        print("pid 1", sorted(entry.split(b"=")[0].decode() for entry in environ.split(b"\\0") if entry))
print("read", read)
print("environ", sorted(os.environ), "found", found)
"""
# The names a bubblewrap run's pid 1 and the example may hold: what the sandbox sets, nothing of the caller's.
PID1_ENVIRON = {"PATH", "LC_CTYPE"}
EXAMPLE_ENVIRON = {"HOME", "LANG", "LC_ALL", "PATH", "PWD", "PYTHONDONTWRITEBYTECODE", "PYTHONHASHSEED", "TMPDIR"}


def _probed(printed: str) -> tuple[list[str], list[str], list[str]]:
    """(pid 1's variable names, the pids whose environ was read, the example's own names) from ENV_PROBE's lines."""
    lines = {line.split(" ", 1)[0]: line for line in printed.splitlines()}
    pid1 = eval(lines["pid"].split(" ", 2)[2]) if "pid" in lines else []  # noqa: S307 - a list literal the probe printed
    read = eval(lines["read"].split(" ", 1)[1])  # noqa: S307
    names = eval(lines["environ"].split(" ", 1)[1].rsplit(" found ", 1)[0])  # noqa: S307
    return pid1, read, names


def test_the_pipelines_environment_is_out_of_reach(sandbox, monkeypatch):
    """bubblewrap is started with a clean environment: its pid 1 keeps the environment it was given, and the
    fresh /proc shows it (read, not skipped) without the pipeline's secret; the example's own holds only
    what the sandbox sets."""
    secret = f"tok-{uuid.uuid4().hex}"
    monkeypatch.setenv("SECRET_TOKEN", secret)
    outcome = sandbox.run(ENV_PROBE.format(secret=secret))
    printed = outcome.stdout.decode()
    assert outcome.returncode == 0, printed
    assert "SECRET_TOKEN" not in printed and printed.rstrip().endswith("found []")
    pid1, read, names = _probed(printed)
    assert "1" in read and "self" in read, printed  # the probe saw pid 1's environ and its own
    assert pid1 and set(pid1) <= PID1_ENVIRON, pid1
    assert set(names) <= EXAMPLE_ENVIRON, names


def test_run_as_an_unprivileged_user_the_pipelines_environment_and_proc_are_out_of_reach():
    """As a non-root caller the example keeps the caller's uid, so the pipeline's /proc/PID/environ would be
    readable from a shared /proc: bubblewrap's fresh /proc holds only the sandbox's processes."""
    secret = f"tok-{uuid.uuid4().hex}"
    script = f"""
import os, sys
from pipeline.examples.sandbox import Limits, Sandbox
sandbox = Sandbox(Limits(timeout=10))
assert sandbox.user == "own", sandbox.user
outcome = sandbox.run({ENV_PROBE.format(secret=secret)!r} + "import signal\\ntry:\\n    os.kill({{pid}}, signal.SIGKILL)\\n    print('killed the pipeline')\\nexcept OSError as exc:\\n    print('kill', type(exc).__name__)\\n".replace("{{pid}}", str(os.getpid())))
print(outcome.returncode, outcome.stdout.decode())
"""
    done = as_unprivileged([sys.executable, "-c", script], env={"SECRET_TOKEN": secret})
    assert done.returncode == 0, done.stdout + done.stderr  # the pipeline lived (guard mode's example killed it: -9)
    assert done.stdout.startswith("0 pid 1") and "found []" in done.stdout, done.stdout
    pid1, read, names = _probed(done.stdout.split(" ", 1)[1])
    assert "1" in read and pid1 and set(pid1) <= PID1_ENVIRON and set(names) <= EXAMPLE_ENVIRON, done.stdout
    assert "killed the pipeline" not in done.stdout and "kill ProcessLookupError" in done.stdout


def test_run_as_an_unprivileged_user_no_process_is_left_behind():
    """As a non-root caller there is no uid of the example's own to sweep: a child that starts a session of
    its own (and so leaves the process group) must still be gone when the run returns. Found from the
    host's /proc by the name the child gives itself."""
    name = f"left-{uuid.uuid4().hex[:8]}"  # a task's comm: at most 15 bytes
    example = (f"import ctypes, os, time\nnamed_r, named_w = os.pipe()\nif os.fork() == 0:\n    os.setsid()\n"
               f"    ctypes.CDLL(None).prctl(15, {name.encode()!r})  # PR_SET_NAME\n    os.write(named_w, b'x')\n"
               "    time.sleep(60)\n    os._exit(0)\nos.read(named_r, 1)  # the child has its name: the parent ends only then\n"
               "print('parent done')\n")
    script = f"""
import os
from pipeline.examples.sandbox import Limits, Sandbox
sandbox = Sandbox(Limits(timeout=10))
assert sandbox.user == "own", sandbox.user
outcome = sandbox.run({example!r})
left = []
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        if open(f"/proc/{{pid}}/comm").read().strip() == {name!r}:
            left.append(pid)
    except OSError:
        pass
print(outcome.returncode, outcome.stdout.decode().strip(), "left", len(left))
for pid in left:
    os.kill(int(pid), 9)
"""
    done = as_unprivileged([sys.executable, "-c", script], env={})
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.split() == ["0", "parent", "done", "left", "0"], done.stdout


def test_a_memory_balloon_across_processes_is_bounded_for_the_whole_example():
    """Eight processes of 180 MiB each under memory_mb 256: RLIMIT_AS alone lets every one hold its share
    (1.4 GiB in all); the example's cgroup lets at most one."""
    if cgroup.kind() is None:
        pytest.fail("no cgroup can be made on this machine: memory is bounded per process only (the report says so)")
    limits = Limits(timeout=20, memory_mb=256, processes=32)
    # Every child holds its block until each has either reported holding it or died, so "at once" does not
    # depend on timing (CI saw two children hold one after the other on a loaded machine, each alone).
    code = """
import os, select
release_r, release_w = os.pipe()
status_r, status_w = os.pipe()
children = {}
for i in range(8):
    pid = os.fork()
    if pid == 0:
        os.close(release_w); os.close(status_r)
        block = b"x" * (180 << 20)  # written, so every page is resident
        os.write(status_w, bytes([i]))
        os.read(release_r, 1)  # hold until released
        os._exit(0)
    children[pid] = i
os.close(release_r); os.close(status_w)
reported, dead = set(), set()
while len(reported | dead) < len(children):
    ready, _, _ = select.select([status_r], [], [], 0.2)
    if ready:
        reported.update(os.read(status_r, 64))
    for pid, i in children.items():
        if i not in dead and os.waitpid(pid, os.WNOHANG)[0]:
            dead.add(i)
print("holding", len(reported - dead), "of", len(children), flush=True)
os.close(release_w)
for pid, i in children.items():
    if i not in dead:
        os.waitpid(pid, 0)
print("done")
"""
    outcome = Sandbox(limits).run(code, limits=limits)
    said = [line for line in outcome.stdout.decode().splitlines() if line.startswith("holding ")]
    assert said, outcome  # the parent lived to count
    holding = int(said[0].split()[1])
    assert holding <= 1, outcome
    assert outcome.out_of_memory
    assert _left_behind(outcome) == []


def test_the_default_limits_bound_the_whole_example_not_each_process(monkeypatch):
    """The defaults (4 GiB, 64 tasks) once let 64 processes of 4 GiB each run (RLIMIT_AS alone): the group an
    example runs in holds the default memory and task limits for all its processes together, and the
    example ran in it (the group had a process while it ran)."""
    if cgroup.kind() is None:
        pytest.fail("no cgroup can be made on this machine: memory is bounded per process only (the report says so)")
    made, real = [], cgroup.make

    def recording(memory_mb, processes):
        group = real(memory_mb, processes)
        limit = {f.name: (f / ("memory.max" if (f / "memory.max").exists() else "memory.limit_in_bytes")).read_text().strip()
                 for f in group.folders if (f / "memory.max").exists() or (f / "memory.limit_in_bytes").exists()}
        tasks = {f.name: (f / "pids.max").read_text().strip() for f in group.folders if (f / "pids.max").exists()}
        add = group.add
        group.add = lambda pid: (add(pid), made[-1].__setitem__("members", len(group.pids())))
        made.append({"memory": set(limit.values()), "tasks": set(tasks.values()), "members": 0})
        return group

    monkeypatch.setattr(cgroup, "make", recording)
    defaults = Limits()
    outcome = Sandbox(defaults).run("print('ok')")
    assert outcome.stdout == b"ok\n" and made, made  # (a first run here also makes the probe's group: same limits)
    for group in made:
        assert group == {"memory": {str(defaults.memory_mb << 20)}, "tasks": {str(defaults.processes)}, "members": 1}, made


def test_a_world_readable_file_of_the_machine_is_not_there(sandbox):
    """Files anyone may read on the machine (outside the staging folder, in folders anyone may enter) are
    absent, not just unreadable: only the interpreter, its libraries and the environment are visible."""
    folder = tempfile.mkdtemp(prefix="readable-", dir="/run" if os.access("/run", os.W_OK) else "/var/tmp")
    os.chmod(folder, 0o755)
    secret = f"WORLD-READABLE-{uuid.uuid4().hex}"
    path = os.path.join(folder, "notes.txt")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(secret)
    os.chmod(path, 0o644)
    code = f"""
import os
for path in ({path!r}, "/etc/passwd", "/etc/hostname", "/root", "/home", "/work", "/var", "/run"):
    try:
        with open(path, "rb") as handle:
            print("read", path, handle.read(200))
    except OSError as exc:
        print("absent" if isinstance(exc, FileNotFoundError) else "unreadable", path, type(exc).__name__)
"""
    try:
        outcome = sandbox.run(code)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    printed = outcome.stdout.decode()
    assert outcome.returncode == 0, printed
    assert secret not in printed
    assert printed.count("\nabsent ") + printed.startswith("absent ") == 8, printed  # every one of them, not one refused


def test_files_written_anywhere_are_gone_after_the_run(sandbox):
    """A file in every folder a program may write on a machine (and the one it runs in): none is left."""
    tag = f"leftover-{uuid.uuid4().hex}"
    folders = ["/tmp", "/var/tmp", "/dev/shm", "/run/lock", "."]
    code = f"""
import os
for folder in {folders!r}:
    try:
        with open(os.path.join(folder, {tag!r}), "wb") as handle:
            handle.write(b"x" * 1024)
        print("wrote", folder)
    except OSError as exc:
        print("refused", folder, type(exc).__name__)
"""
    outcome = sandbox.run(code)
    printed = outcome.stdout.decode()
    assert outcome.returncode == 0 and "wrote /tmp" in printed and "wrote /dev/shm" in printed, printed
    assert [f for f in ("/tmp", "/var/tmp", "/dev/shm", "/run/lock") if os.path.exists(os.path.join(f, tag))] == []


def test_a_fork_bomb_gets_no_more_processes_than_the_limit_and_leaves_none(sandbox):
    code = """
import os
while True:
    try:
        if os.fork():
            os.write(1, b"+")  # one mark per fork that succeeded (the child forks on too)
    except OSError:
        pass
"""
    outcome = sandbox.run(code)
    forks = outcome.stdout.count(b"+")
    assert outcome.timed_out or outcome.capped
    assert 0 < forks < SMALL.processes  # every process alive counts, the first one included
    assert _left_behind(outcome) == []


def test_a_process_that_leaves_the_group_is_killed_too(sandbox):
    code = "import os, time\nif os.fork() == 0:\n    os.setsid()\n    time.sleep(60)\nprint('parent done')"
    outcome = sandbox.run(code)
    assert outcome.returncode == 0 and outcome.stdout == b"parent done\n"
    assert _left_behind(outcome) == []


def test_an_endless_loop_is_stopped_at_the_wall_clock_limit(sandbox):
    outcome = sandbox.run("print('start', flush=True)\nwhile True:\n    pass", limits=Limits(timeout=2))
    assert outcome.timed_out and outcome.returncode is None
    assert outcome.stdout == b"start\n"
    assert _left_behind(outcome) == []


def test_a_4_gib_allocation_fails_and_memory_stays_bounded(sandbox):
    outcome = sandbox.run("data = bytearray(4 << 30)\nprint('allocated')")
    assert outcome.returncode == 1
    assert b"MemoryError" in outcome.stdout and b"allocated" not in outcome.stdout
    assert outcome.max_rss_kb * 1024 < SMALL.memory_mb << 20


def test_a_disk_filler_stops_at_the_file_size_limit(sandbox):
    code = """
written = 0
try:
    with open("fill", "wb") as handle:
        while True:
            handle.write(b"x" * 65536)
            written += 65536
except OSError as exc:
    print(type(exc).__name__, exc.errno, written)
"""
    outcome = sandbox.run(code)
    kind, errno, written = outcome.stdout.decode().split()
    assert (outcome.returncode, kind, errno) == (0, "OSError", "27")  # EFBIG
    assert int(written) <= SMALL.file_mb << 20


def test_many_small_files_fill_only_a_capped_tmpfs(sandbox):
    """Every folder the example may write is a size-capped tmpfs: files under the size limit, written to
    /tmp, stop at its size (ENOSPC), and nothing lands on the machine's /tmp."""
    code = """
import os
written = 0
try:
    for i in range(100000):
        with open(f"/tmp/fill-{i}", "wb") as handle:
            handle.write(b"x" * (1 << 20))
        written += 1 << 20
except OSError as exc:
    print(exc.errno, written)
"""
    before = set(os.listdir("/tmp"))
    outcome = sandbox.run(code)
    errno, written = outcome.stdout.decode().split()
    assert errno == "28" and int(written) <= SMALL.disk_mb << 20  # ENOSPC
    assert not any(name.startswith("fill-") for name in set(os.listdir("/tmp")) - before)


def test_output_past_the_cap_stops_the_example(sandbox):
    outcome = sandbox.run("while True:\n    print('x' * 1000)")
    assert outcome.capped and outcome.returncode is None
    assert len(outcome.stdout) <= SMALL.output_bytes
    assert _left_behind(outcome) == []


def test_stderr_is_merged_in_the_order_written_or_kept_apart(sandbox):
    code = "import sys\nprint('one')\nprint('two', file=sys.stderr)\nprint('three')"
    assert sandbox.run(code).stdout == b"one\ntwo\nthree\n"
    apart = sandbox.run(code, merge_stderr=False)
    assert (apart.stdout, apart.stderr) == (b"one\nthree\n", b"two\n")


def test_the_isolation_in_force_is_said(sandbox):
    text = sandbox.isolation.text
    assert text.startswith("bubblewrap (new user, PID, network, mount and IPC namespaces; a fresh /proc;")
    bound = cgroup.kind()
    assert (f"limited for the whole example by a {bound}" if bound else "limited per process only") in text
    assert sandbox.isolation.record == f"bubblewrap; {bound or 'per process'}"
    assert Sandbox(SMALL, unsafe=True).isolation.network == "bubblewrap"  # allowed to go without, it still uses it where it works


def test_without_user_namespaces_nothing_runs_unless_asked_unsafely(tmp_path):
    """A real machine state: a user namespace whose max_user_namespaces is used up, so bwrap cannot make one.
    `examples` then exits 2 saying so, runs nothing and writes no lock; with --unsafe-no-sandbox it runs,
    and says it ran without a sandbox."""
    sources = write_exam(tmp_path, [example_yaml("1.1-hello", "print('hello')", "hello")])
    command = [sys.executable, "-m", "pipeline", "examples", "--sources", str(sources), "--today", "2026-11-30"]
    refused = as_unprivileged(command, env={}, no_more_namespaces=True)
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert ("error: examples run in a bubblewrap sandbox, and this machine does not let bubblewrap create a user namespace"
            in refused.stderr and "nothing was run (--unsafe-no-sandbox runs them" in refused.stderr)
    assert "examples: running" not in refused.stderr and not (sources / "demo" / "examples.lock.json").exists()
    unsafe = as_unprivileged([*command, "--unsafe-no-sandbox"], env={}, no_more_namespaces=True)
    assert unsafe.returncode == 0, unsafe.stdout + unsafe.stderr
    assert "examples: warning: --unsafe-no-sandbox: this machine does not let bubblewrap create a user namespace" in unsafe.stderr
    assert "examples: sandbox: NO SANDBOX (--unsafe-no-sandbox)" in unsafe.stderr
    assert '"isolation": "none; ' in (sources / "demo" / "examples.lock.json").read_text()


def test_a_run_sweeps_only_its_own_stale_cgroups(sandbox):
    """A pipeline killed mid-run leaves an empty group behind: the next run removes ours that are an hour
    old and empty, and nothing else (a young one of ours, another's)."""
    if cgroup.kind() is None:
        pytest.fail("no cgroup can be made on this machine: memory is bounded per process only (the report says so)")
    parent = next(iter(cgroup._v1_parents().values())) if cgroup.kind() == "cgroup v1" else cgroup._v2_parent()
    stale, young, other = (parent / f"{cgroup.PREFIX}stale-test", parent / f"{cgroup.PREFIX}young-test", parent / "someone-elses-test")
    for folder in (stale, young, other):
        folder.mkdir()
    old = time.time() - 2 * cgroup.STALE_SECONDS
    for folder in (stale, other):
        os.utime(folder, (old, old))
    try:
        assert sandbox.run("print('ok')").stdout == b"ok\n"
        assert (stale.exists(), young.exists(), other.exists()) == (False, True, True)
    finally:
        for folder in (stale, young, other):
            if folder.exists():
                folder.rmdir()
