"""Builds under hostile conditions: killed with SIGKILL at each step of publication, a read-only, full or
missing output folder, `--out` naming a file, a bad SOURCE_DATE_EPOCH, a broken earlier build, a bug.

Each test asserts the exit code, the message, and that the earlier outputs and the lock are unchanged.
The kill tests run the real CLI in a subprocess and make it SIGKILL itself at the N-th call of a chosen
step (a renderer, a rename, the link, the clean-up), so every point of publication is hit on purpose."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from pipeline import build as build_module
from pipeline.citations.lock import LOCK_NAME
from pipeline.publish.noop import RECORDS
from pipeline.publish.owned import MARKER
from tests.conftest import ROOT, TODAY

FAST_RENDERERS = {"anki": "pipeline.render.anki.deck", "bank": "pipeline.render.bank"}  # real renderers, no weasyprint
EPOCH = "1798156800"
DRIVER = """
import os, signal, sys
import pipeline.build, pipeline.render as registry
pipeline.build.RENDERERS = {renderers!r}
point, n, when = sys.argv[1].split(":")
count = 0
def arm(fn):
    def wrapped(*args, **kwargs):
        global count
        count += 1
        if count == int(n) and when == "before":
            os.kill(os.getpid(), signal.SIGKILL)
        result = fn(*args, **kwargs)
        if count == int(n) and when == "after":
            os.kill(os.getpid(), signal.SIGKILL)
        return result
    return wrapped
if point == "render":
    load = registry.load
    registry.load = lambda entry: arm(load(entry))
elif point != "none":
    module, name = point.rsplit(".", 1)
    owner = __import__(module)
    setattr(owner, name, arm(getattr(owner, name)))
from pipeline.cli import main
sys.exit(main(sys.argv[2:]))
"""


def snapshot(out: Path) -> dict[str, str]:
    """Every file readers see under OUT/demo, by content hash."""
    folder = out / "demo"
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.rglob("*")) if p.is_file()}


def readable(out: Path) -> None:
    json.loads((out / "demo" / "bank.json").read_text(encoding="utf-8"))
    assert zipfile.ZipFile(out / "demo" / "deck.apkg").testzip() is None


def leftovers(out: Path) -> list[str]:
    current = os.readlink(out / "demo")
    kept = {".lock", MARKER, Path(current).name, Path(current).name + ".state.json", RECORDS}  # RECORDS: the no-op builds' records
    return sorted({p.name for p in (out / ".generations").iterdir()} - kept) + sorted(p.name for p in out.glob(".demo.link.tmp"))


def cli(tmp_path: Path, *args: str, kill: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SOURCE_DATE_EPOCH": EPOCH}
    command = ["-c", DRIVER.format(renderers=FAST_RENDERERS), kill] if kill else ["-c", DRIVER.format(renderers=FAST_RENDERERS), "none:0:never"]
    return subprocess.run([sys.executable, *command, "build", "--sources", "sources", "--out", "out", "--today", TODAY, *args],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)


def built_exams(base: Path, *exams: str) -> Path:
    """`base` with sources of these exams (the valid fixtures) and a first complete build of them in base/out."""
    from tests.conftest import add_exam

    for exam in exams:
        add_exam(base / "sources", exam, "valid")
    assert cli(base).returncode == 0
    return base


@pytest.fixture(scope="module")
def first_build(tmp_path_factory):
    """Sources and a first complete build (tmp/out), and what a build of the edited sources publishes."""
    base = built_exams(tmp_path_factory.mktemp("published"), "demo")
    reference = tmp_path_factory.mktemp("reference")
    shutil.copytree(base, reference, dirs_exist_ok=True, symlinks=True)
    edit(reference / "sources")
    assert cli(reference).returncode == 0
    return base, snapshot(reference / "out")


def edit(sources: Path) -> None:
    path = sources / "demo" / "valid.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("reviewed: 2026-11-01", "reviewed: 2026-11-02", 1), encoding="utf-8")


@pytest.fixture
def built(first_build, tmp_path):
    """A copy of the first build in tmp_path, its sources already edited."""
    shutil.copytree(first_build[0], tmp_path, dirs_exist_ok=True, symlinks=True)
    edit(tmp_path / "sources")
    return tmp_path / "sources"


@pytest.mark.parametrize("kill", [
    "render:1:before", "render:2:after",  # while rendering: nothing published
    "os.replace:1:after",  # the new generation's state saved
    "os.symlink:1:after",  # the new link made beside the old one
    "os.replace:2:before", "os.replace:2:after",  # just before and just after the switch
    "shutil.rmtree:1:after",  # the old generation removed
])
def test_a_build_killed_at_any_step_leaves_one_whole_set(run_cli, built, first_build, tmp_path, fast, kill):
    out, lock, new_outputs = tmp_path / "out", (built / "demo" / LOCK_NAME).read_bytes(), first_build[1]
    before = snapshot(out)
    assert before != new_outputs
    killed = cli(tmp_path, kill=kill)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    after = snapshot(out)
    assert after in (before, new_outputs)  # the old set or the new set, never a mix
    assert after == (new_outputs if kill in ("os.replace:2:after", "shutil.rmtree:1:after") else before)
    readable(out)
    assert (built / "demo" / LOCK_NAME).read_bytes() == lock
    again = run_build(run_cli, tmp_path, "--out", "out")  # the next build, in this process
    assert again.code == 0, again.err
    assert snapshot(out) == new_outputs and leftovers(out) == []


def run_build(run_cli, tmp_path, *args):
    return run_cli("build", "--sources", "sources", "--today", TODAY, *args, cwd=tmp_path)


@pytest.fixture
def fast(monkeypatch):
    monkeypatch.setattr(build_module, "RENDERERS", FAST_RENDERERS)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)


def test_out_naming_a_file_is_a_usage_error(run_cli, make_sources, tmp_path, fast):
    make_sources("valid")
    (tmp_path / "afile").write_text("mine")
    result = run_build(run_cli, tmp_path, "--out", "afile")
    assert (result.code, result.err.splitlines()[-1]) == (2, "error: --out afile: is a file, expected a folder for the outputs")
    assert (tmp_path / "afile").read_text() == "mine"


def test_out_in_a_missing_folder_is_a_usage_error(run_cli, make_sources, tmp_path, fast):
    make_sources("valid")
    result = run_build(run_cli, tmp_path, "--out", "no/such/out")
    assert result.code == 2 and f"the folder {tmp_path / 'no' / 'such'} does not exist" in result.err
    assert not (tmp_path / "no").exists()


@pytest.mark.parametrize(("value", "message"), [
    ("soon", "error: SOURCE_DATE_EPOCH='soon' is not a whole number of seconds since 1970-01-01"),
    ("4354819200", "error: SOURCE_DATE_EPOCH=4354819200 is outside 1980-01-01 to 2107-12-31, the dates a deck (a ZIP file) can hold"),
    ("99999999999999999999999", "error: SOURCE_DATE_EPOCH=99999999999999999999999 is outside 1980-01-01 to 2107-12-31, the dates a deck (a ZIP file) can hold"),
])
def test_a_bad_source_date_epoch_is_a_usage_error(run_cli, make_sources, tmp_path, fast, monkeypatch, value, message):
    make_sources("valid")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", value)
    result = run_cli("build", "--sources", "sources", "--out", "out", cwd=tmp_path)
    assert (result.code, result.err.strip()) == (2, message)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("damage", ["dangling link", "garbage state", "leftover generation"])
def test_a_broken_earlier_build_is_repaired(run_cli, first_build, tmp_path, fast, damage):
    shutil.copytree(first_build[0], tmp_path, dirs_exist_ok=True, symlinks=True)
    out = tmp_path / "out"
    current = out / ".generations" / Path(os.readlink(out / "demo")).name
    if damage == "dangling link":
        shutil.rmtree(current)
    elif damage == "garbage state":
        current.with_name(current.name + ".state.json").write_text('{"renderers": {"bank": 7}}')
    else:
        (out / ".generations" / "demo-99").mkdir()
        (out / ".generations" / "demo-99" / "bank.json").write_text("{half")
        (out / ".demo.link.tmp").symlink_to(".generations/demo-99")
    result = run_build(run_cli, tmp_path, "--out", "out")
    assert result.code == 0, result.err
    readable(out)
    assert leftovers(out) == []
    if damage in ("dangling link", "leftover generation"):
        assert "build: warning:" in result.err


def test_a_bug_exits_3_with_one_line_and_a_log(run_cli, make_sources, tmp_path, monkeypatch):
    make_sources("valid")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)

    def broken(ctx):
        raise ZeroDivisionError("a bug in a renderer")

    monkeypatch.setattr(build_module, "RENDERERS", {"bank": "pipeline.render.bank", "broken": broken})
    result = run_build(run_cli, tmp_path, "--out", "out")
    assert result.code == 3
    last = result.err.strip().splitlines()[-1]
    assert last == ("internal error (a bug in the pipeline, not in your sources): ZeroDivisionError: a bug in a renderer; "
                    "please report it with the traceback in build/pipeline-crash.log")
    assert "Traceback" not in result.err
    assert "def broken" in (tmp_path / "build" / "pipeline-crash.log").read_text() or "broken" in (tmp_path / "build" / "pipeline-crash.log").read_text()
    assert sorted(p.name for p in (tmp_path / "out" / ".generations").iterdir()) == [".lock", MARKER]


@contextlib.contextmanager
def tmpfs(path: Path, size: str, *options: str):
    """A small file system of its own (needs root): real full-disk and read-only conditions."""
    path.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", ",".join([f"size={size}", *options]), "tmpfs", str(path)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip("cannot mount a tmpfs here (needs root)")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


def test_a_read_only_output_folder_is_an_environment_error(run_cli, make_sources, tmp_path, fast):
    make_sources("valid")
    with tmpfs(tmp_path / "ro", "1m", "ro"):
        result = run_build(run_cli, tmp_path, "--out", "ro/out")
        assert result.code == 2
        assert result.err.strip().splitlines()[-1].startswith("error: ro/out: Read-only file system: the file system is read-only")


def test_a_full_disk_is_an_environment_error_and_keeps_the_old_outputs(run_cli, make_sources, tmp_path, fast):
    sources = make_sources("valid")
    with tmpfs(tmp_path / "small", "2m"):
        assert run_build(run_cli, tmp_path, "--out", "small/out").code == 0
        before = snapshot(tmp_path / "small" / "out")
        filler = tmp_path / "small" / "filler"
        with contextlib.suppress(OSError), open(filler, "wb") as handle:
            while True:
                handle.write(b"\0" * 65536)
                handle.flush()
        edit(sources)
        result = run_build(run_cli, tmp_path, "--out", "small/out")
        assert result.code == 2
        assert "No space left on device: the disk is full; free some space and run again" in result.err
        assert snapshot(tmp_path / "small" / "out") == before
        filler.unlink()
        assert run_build(run_cli, tmp_path, "--out", "small/out").code == 0
        assert leftovers(tmp_path / "small" / "out") == []


def all_leftovers(out: Path) -> list[str]:
    """What OUT holds beyond each exam's link, its current generation and that generation's state (and the
    no-op builds' records)."""
    kept = {".lock", MARKER, RECORDS}
    for link in (p for p in out.iterdir() if p.is_symlink() and not p.name.startswith(".")):
        kept |= {Path(os.readlink(link)).name, Path(os.readlink(link)).name + ".state.json"}
    return sorted({p.name for p in (out / ".generations").iterdir()} - kept) + sorted(p.name for p in out.glob(".*.link.tmp"))


@pytest.fixture(scope="module")
def two_built(tmp_path_factory):
    """Two exams, demo and other, built once."""
    return built_exams(tmp_path_factory.mktemp("two"), "demo", "other")


@pytest.mark.parametrize("kill", [
    "render:3:before",  # at 75% of rendering: demo's generation and state are complete, other's half made
    "os.replace:1:after", "os.replace:2:after",  # each exam's state saved
    "os.symlink:1:after", "os.replace:3:before",  # demo's new link beside the old one, just before its switch
    "os.replace:3:after", "shutil.rmtree:1:after",  # demo switched, other not yet
    "os.symlink:2:after", "os.replace:4:before", "os.replace:4:after",  # the same for other
])
@pytest.mark.parametrize("next_build", ["the other exam only", "one exam broken"])
def test_the_next_build_removes_what_a_killed_build_of_two_exams_left(run_cli, two_built, tmp_path, fast, kill, next_build):
    shutil.copytree(two_built, tmp_path, dirs_exist_ok=True, symlinks=True)
    for exam in ("demo", "other"):
        edit_exam = tmp_path / "sources" / exam / "valid.yaml"
        edit_exam.write_text(edit_exam.read_text(encoding="utf-8").replace("reviewed: 2026-11-01", "reviewed: 2026-11-02", 1), encoding="utf-8")
    killed = cli(tmp_path, kill=kill)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    if next_build == "one exam broken":  # demo has errors now: the build does not touch its outputs, yet cleans up
        (tmp_path / "sources" / "demo" / "valid.yaml").write_text("id: [broken\n", encoding="utf-8")
        again = run_build(run_cli, tmp_path, "--out", "out")
        assert again.code == 1, again.err
    else:
        again = run_build(run_cli, tmp_path, "--out", "out", "--exam", "other")
        assert again.code == 0, again.err
    assert all_leftovers(tmp_path / "out") == []
    for exam in ("demo", "other"):
        json.loads((tmp_path / "out" / exam / "bank.json").read_text(encoding="utf-8"))  # both whole, old or new


KILL_POINTS_OF_TWO = ["render:3:before", "os.replace:1:after", "os.replace:2:after", "os.symlink:1:after", "os.replace:3:before",
                      "os.replace:3:after", "shutil.rmtree:1:after", "os.symlink:2:after", "os.replace:4:before", "os.replace:4:after"]


@pytest.mark.parametrize("kill", KILL_POINTS_OF_TWO)
def test_a_no_op_build_after_a_killed_build_sweeps_what_it_left(tmp_path, kill):
    """Nothing changed since the last whole build, a forced build killed at a step of its work: the next
    plain build is the no-op path (every output unchanged), and it removes what the killed one left (it
    used to replay the last build's lines and leave the killed build's generations and states, at 7 of
    these 10 points)."""
    built_exams(tmp_path, "demo", "other")  # built here, not copied: a copy's other paths would not be the no-op path
    killed = cli(tmp_path, "--force", kill=kill)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    left = all_leftovers(tmp_path / "out")
    assert left  # at each of these points the killed build left something
    again = cli(tmp_path)  # as the first build was made (same process setup), so that its no-op check can match
    assert again.returncode == 0, again.stderr
    assert again.stderr.count(": unchanged: ") == 2 and "wrote " not in again.stderr, again.stderr  # nothing changed: nothing written
    assert all_leftovers(tmp_path / "out") == []
    assert "removed what an interrupted build left" in again.stderr, again.stderr  # said, never removed in silence
    for exam in ("demo", "other"):
        readable_exam(tmp_path / "out", exam)
    replay = cli(tmp_path)  # with nothing left over, the next one is the no-op replay again
    assert replay.returncode == 0 and replay.stderr.count(": unchanged: ") == 2 and "removed" not in replay.stderr, replay.stderr


def readable_exam(out: Path, exam: str) -> None:
    json.loads((out / exam / "bank.json").read_text(encoding="utf-8"))
    assert zipfile.ZipFile(out / exam / "deck.apkg").testzip() is None
