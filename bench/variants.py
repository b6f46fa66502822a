"""Variants benchmark: `variants` on the sample with nothing changed against a cold run (no lock).

Both run the real command line (`python -m pipeline variants`) in a child process on a copy of the sample's
sources with the lock removed for the cold run: the cold run validates the exam, draws every varied
question's seeds in the sandbox (stress draw included) and writes the lock; the second finds the bytes it
reads as the first left them (pipeline/variants/unchanged.py) and replays what a run over them says, with
nothing validated, drawn or written. The detail also gives a third run without that record (the cache
cleared): the full path, which validates and finds every entry unchanged. Medians of a few rounds.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import Measure
from pipeline.variants.unchanged import RECORDS

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "sources"
TODAY = "2026-11-29"


def _run(sources: Path) -> float:
    command = [sys.executable, "-m", "pipeline", "variants", "--sources", str(sources), "--today", TODAY, "--envs", str(sources.parent / "envs")]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"variants failed: {done.stdout[-1000:]}{done.stderr[-1000:]}")
    return elapsed


def measure(rounds: int = 3) -> list[Measure]:
    work = Path(tempfile.mkdtemp(prefix="bench-variants-"))
    try:
        colds, noops, fulls = [], [], []
        for i in range(rounds):
            sources = work / f"round-{i}" / "sources"
            shutil.copytree(SAMPLE, sources)
            for lock in sources.glob("*/variants.lock.json"):
                lock.unlink()
            colds.append(_run(sources))
            noops.append(_run(sources))
            (sources.parent / "envs" / RECORDS).unlink()
            fulls.append(_run(sources))
        cold, noop, full = statistics.median(colds), statistics.median(noops), statistics.median(fulls)
        return [Measure("variants_noop_vs_cold", noop / cold, "<= 0.3",
                        f"nothing changed {noop:.2f} s / cold {cold:.2f} s (the sample's varied questions, stress draw included; "
                        f"without the no-op record, validating: {full:.2f} s; median of {rounds})")]
    finally:
        shutil.rmtree(work, ignore_errors=True)
