"""Build benchmarks: a no-op rebuild against a cold build, and the peak memory of a 100x build.

Both run the real command line (`python -m pipeline build`) in a child process, as an author would.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import Measure

ROOT = Path(__file__).resolve().parent.parent
TODAY = "2026-11-29"


def _build(sources: Path, out: Path, *extra: str) -> tuple[float, int]:
    """Wall seconds and peak resident memory (KiB) of one `python -m pipeline build`."""
    command = [sys.executable, "-m", "pipeline", "build", "--sources", str(sources), "--out", str(out), "--today", TODAY, *extra]
    start = time.perf_counter()
    child = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"build failed: {child.stderr.read().decode()[-2000:]}")
    child.stderr.close()
    return elapsed, usage.ru_maxrss


def _noop_ratio(work: Path, repeat: int = 3) -> Measure:
    colds, noops = [], []
    for i in range(repeat):
        out = work / f"out-{i}"
        colds.append(_build(ROOT / "sources", out)[0])
        noops.append(_build(ROOT / "sources", out)[0])
    cold, noop = statistics.median(colds), statistics.median(noops)
    return Measure("noop_rebuild_ratio", noop / cold, "<= 0.1", f"no-op {noop:.2f} s / cold {cold:.2f} s (sample, median of {repeat})")


def _peak_memory(work: Path) -> Measure | None:
    try:
        from bench.synthetic import make_exam
    except ModuleNotFoundError:
        return None
    sources = work / "x100"
    make_exam(sources, 100)
    seconds, peak_kib = _build(sources, work / "out-x100")
    return Measure("peak_memory_100x_mib", peak_kib / 1024, "(reported)", f"100x synthetic build: {seconds:.1f} s, peak RSS {peak_kib / 1024:.0f} MiB")


def measure() -> list[Measure]:
    work = Path(tempfile.mkdtemp(prefix="bench-build-"))
    try:
        measures = [_noop_ratio(work)]
        memory = _peak_memory(work)
        return measures + ([memory] if memory else [])
    finally:
        shutil.rmtree(work, ignore_errors=True)
