"""The sandbox against hostile examples, in real subprocesses: each is stopped, reported, and leaves nothing
behind. Counted, never timed: forks made, bytes written, connections received, processes left."""

from __future__ import annotations

import os
import socket
import time

import pytest

from pipeline.examples.sandbox import Limits, Sandbox, processes_of
from tests.examplekit import Canary

SMALL = Limits(timeout=5, memory_mb=512, processes=24, file_mb=4, disk_mb=16, output_bytes=64 * 1024)
MODES = ["best", "guard"]  # what this machine allows (namespaces here), and the fallback forced


@pytest.fixture(params=MODES)
def sandbox(request):
    return Sandbox(SMALL, network=None if request.param == "best" else "guard")


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


def test_the_environment_holds_nothing_of_the_callers(sandbox, monkeypatch):
    monkeypatch.setenv("API_TOKEN", "s3cret")
    outcome = sandbox.run("import os\nprint(sorted(os.environ))\nprint(os.environ['HOME'])")
    printed = outcome.stdout.decode()
    assert outcome.returncode == 0
    assert "API_TOKEN" not in printed and "s3cret" not in printed
    assert os.environ["HOME"] not in printed.splitlines()[-1:]


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


def test_many_small_files_fill_only_a_capped_tmpfs():
    """Under namespaces every world-writable folder is a size-capped tmpfs: files under the size limit,
    written to /tmp, stop at its size (ENOSPC), and nothing lands on the machine's /tmp."""
    sandbox = Sandbox(SMALL)
    if sandbox.isolation.network != "namespace":
        pytest.fail("this machine refuses user namespaces; the guard fallback bounds files by size and time only")
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


def test_stderr_is_merged_in_the_order_written_or_kept_apart():
    sandbox = Sandbox(SMALL)
    code = "import sys\nprint('one')\nprint('two', file=sys.stderr)\nprint('three')"
    assert sandbox.run(code).stdout == b"one\ntwo\nthree\n"
    apart = sandbox.run(code, merge_stderr=False)
    assert (apart.stdout, apart.stderr) == (b"one\nthree\n", b"two\n")


def test_the_isolation_in_force_is_said():
    assert Sandbox(SMALL).isolation.text.startswith(("network namespace", "socket guard"))
    assert Sandbox(SMALL, network="guard").isolation.text.startswith("socket guard")
