"""Examples benchmark: a run of `examples` with nothing changed against a cold one (the freeze).

Both run the real command line (`python -m pipeline examples`) in a child process, on a synthetic exam of
standard-library examples (nothing committed, no torch): the cold run starts a sandbox per example; the
second finds every hash unchanged in the lock and runs none. Medians of a few rounds.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from bench import Measure

ROOT = Path(__file__).resolve().parent.parent
TODAY = "2026-11-29"
EXAMPLES = 20

EXAM = """\
id: bench-examples
code: BENCH-EX
title: Examples benchmark
vendor: Acme
exam_page: https://example.com/exam
reviewed: 2026-11-01
review_policy: {max_age_days: 180}
sections:
  - {number: 1, title: Basics, weight: 100}
"""


def _example(n: int) -> str:
    code = f"total = sum(i * i for i in range({n * 1000}))\nprint('sum of squares below {n * 1000}:', total)"
    output = f"sum of squares below {n * 1000}: {sum(i * i for i in range(n * 1000))}"
    return (f"  - id: 1.1-ex{n}\n    title: Example {n}\n    code: |\n{textwrap.indent(code, '      ')}\n"
            f"    output: |-\n      {output}\n")


def make_exam(sources: Path, examples: int = EXAMPLES) -> None:
    folder = sources / "bench-examples"
    folder.mkdir(parents=True)
    (folder / "exam.yaml").write_text(EXAM, encoding="utf-8")
    body = "\n".join(_example(n) for n in range(1, examples + 1))
    (folder / "1.1.yaml").write_text(
        'id: "1.1"\ntitle: Sums\nsummary: Sums.\nreviewed: 2026-11-01\nkey_points:\n  - {id: 1.1-sum, text: Sums add up.}\n'
        f"examples:\n{body}", encoding="utf-8")


def _run(sources: Path) -> float:
    command = [sys.executable, "-m", "pipeline", "examples", "--sources", str(sources), "--today", TODAY, "--envs", str(sources.parent / "envs")]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"examples failed: {done.stderr[-2000:]}")
    return elapsed


def measure(rounds: int = 3) -> list[Measure]:
    work = Path(tempfile.mkdtemp(prefix="bench-examples-"))
    try:
        colds, noops = [], []
        for i in range(rounds):
            sources = work / f"round-{i}" / "sources"
            make_exam(sources)
            colds.append(_run(sources))
            noops.append(_run(sources))
        cold, noop = statistics.median(colds), statistics.median(noops)
        return [Measure("examples_noop_vs_cold", noop / cold, "<= 0.3",
                        f"nothing changed {noop:.2f} s / cold {cold:.2f} s ({EXAMPLES} standard-library examples, median of {rounds})")]
    finally:
        shutil.rmtree(work, ignore_errors=True)
