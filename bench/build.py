"""Build benchmarks: what a build costs when nothing or one module changed, and a 100x exam's build.

- noop_rebuild_ratio: `python -m pipeline build` of the sample with nothing changed over a cold build
  (median of 3 pairs), as an author runs it;
- code_edit_rebuilds: the outputs a build rewrites after an edit to one renderer's module (the GIFT
  export's): each output's code digest covers its own imports only, so 1;
- guide_100x_peak_gib: the peak memory of a cold build of the 100x synthetic exam (every output);
- guide_100x_vs_1x_per_page: the study guide's time per page in that build over its time per page in the
  1x build (both cold, in child processes: bench/buildprobe.py).

The builds run from a copy of the project (pipeline/, schema/, templates/, the sample), so the edit
leaves the working tree alone.
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import Measure
from bench.synthetic import make_exam
from pipeline.render import resolve_output

ROOT = Path(__file__).resolve().parent.parent
TODAY = "2026-11-29"
EDITED = Path("pipeline/render/lms/gift.py")  # one renderer's own module: only questions.gift imports it
GIB = 1024 * 1024  # KiB in a GiB
GUIDE_OUTPUT = resolve_output("guide")  # the study guide's name in the registry: buildprobe times each renderer by it


def _project(work: Path) -> Path:
    """A copy of what a build reads: the code, the templates, the pinned dependencies and the sample."""
    copy = work / "project"
    for folder in ("pipeline", "schema", "templates", "sources"):
        shutil.copytree(ROOT / folder, copy / folder, ignore=shutil.ignore_patterns("__pycache__", "deck.state.json"))
    for pinned in ("requirements.txt", "package.json", "package-lock.json"):
        shutil.copy(ROOT / pinned, copy / pinned)
    (copy / "node_modules").symlink_to(ROOT / "node_modules")  # the npm packages the site ships
    return copy


def _build(project: Path, out: str) -> tuple[float, list[str]]:
    """Wall seconds of one `python -m pipeline build` and the files it wrote."""
    command = [sys.executable, "-m", "pipeline", "build", "--sources", "sources", "--out", out, "--today", TODAY]
    started = time.perf_counter()
    done = subprocess.run(command, cwd=project, capture_output=True, text=True, timeout=1800)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"build failed: {done.stderr[-2000:]}")
    return elapsed, [line.removeprefix("wrote ") for line in done.stderr.splitlines() if line.startswith("wrote ")]


def _noop_and_code_edit(work: Path) -> list[Measure]:
    project = _project(work)
    colds, noops = [], []
    for i in range(3):
        colds.append(_build(project, f"out-{i}")[0])
        noops.append(_build(project, f"out-{i}")[0])
    edited = project / EDITED
    edited.write_text(edited.read_text(encoding="utf-8") + "\n# an edit to the GIFT export's code\n", encoding="utf-8")
    _, rewritten = _build(project, "out-0")
    cold, noop = statistics.median(colds), statistics.median(noops)
    return [
        Measure("noop_rebuild_ratio", noop / cold, "<= 0.05", f"no-op {noop:.2f} s / cold {cold:.2f} s (sample, median of 3)"),
        Measure("code_edit_rebuilds", len(rewritten), "= 1", f"after an edit to {EDITED}: rewrote {', '.join(Path(p).name for p in rewritten) or 'nothing'}"),
    ]


def probe(sources: Path, out: Path) -> dict:
    command = [sys.executable, "-m", "bench.buildprobe", str(sources), str(out), TODAY]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=3600)
    if done.returncode != 0:
        raise RuntimeError(f"build failed: {done.stderr[-2000:]}")
    return json.loads(done.stdout.splitlines()[-1])


def _hundredfold(work: Path) -> list[Measure]:
    small = probe(make_exam(work / "x1", 1), work / "out-x1")
    large = probe(make_exam(work / "x100", 100), work / "out-x100")
    return guide_measures(small, large)


def guide_measures(small: dict, large: dict) -> list[Measure]:
    """The 100x keys from two buildprobe results (a 1x and a 100x build)."""
    per_page = [run["seconds"][GUIDE_OUTPUT] / run["guide_pages"] for run in (small, large)]
    peak = large["peak_kib"] / GIB
    detail = (f"100x build {large['total']:.0f} s, guide {large['seconds'][GUIDE_OUTPUT]:.0f} s for {large['guide_pages']} pages "
              f"({per_page[1] * 1000:.0f} ms a page); 1x guide {small['seconds'][GUIDE_OUTPUT]:.1f} s for {small['guide_pages']} pages "
              f"({per_page[0] * 1000:.0f} ms a page)")
    return [
        Measure("guide_100x_peak_gib", peak, "<= 2.0", f"peak RSS of the 100x build {peak:.2f} GiB (1x: {small['peak_kib'] / GIB:.2f} GiB)"),
        Measure("guide_100x_vs_1x_per_page", per_page[1] / per_page[0], "<= 1.05", detail),
    ]


def measure() -> list[Measure]:
    work = Path(tempfile.mkdtemp(prefix="bench-build-"))
    try:
        return [*_noop_and_code_edit(work), *_hundredfold(work)]
    finally:
        shutil.rmtree(work, ignore_errors=True)
