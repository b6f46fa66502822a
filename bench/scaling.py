"""How validate and the practice bank scale with the size of an exam: both must cost linearly.

On synthetic exams 1x, 10x and 100x the sample (bench/synthetic.py), measured in-process so that the
interpreter's start-up does not hide the work:
- `validate_scaling`: validate on 10x over 10 x validate on 1x. Goal <= 1.25 (1.0 is linear).
- bank writing (build the bank of an already validated exam, serialise, write) on 10x and 100x; the
  100x/10x ratio goes in the detail (10 is linear).

What to expect of the bank ratio: about 12-13 rather than 10, and not from the bank's own work. With
the garbage collector off, the cost per copy of the sample is flat (about 23, 24 and 24 ms at 10x, 100x
and 200x); with it on, it is about 23, 29 and 31 ms: CPython's full collections walk every live object,
the interpreter's own fixed set of objects makes the small exam's heap look relatively big, and the
extra cost levels off as the exam grows (200x/100x is close to 2).
"""

from __future__ import annotations

import datetime as dt
import tempfile
from pathlib import Path

from bench import Measure, median_seconds
from bench.synthetic import make_exam
from pipeline.check.validate import validate
from pipeline.derive import build_view
from pipeline.render import RenderContext
from pipeline.render.bank import render
from pipeline.settings.reader import exam_inputs

TODAY = dt.date(2026, 11, 29)  # a fixed date: the sample's reviews are fresh on it, so no warning is made


def _validate_seconds(sources: Path, repeat: int) -> float:
    def run() -> None:
        assert validate(sources, TODAY, inputs=exam_inputs).ok  # the lock checks included, as `validate` runs them

    return median_seconds(run, repeat=repeat)


def _bank_seconds(sources: Path, out: Path, repeat: int) -> float:
    """Bank writing for one exam, loaded here and let go on return: with two exams in memory at once the
    smaller would get fewer full garbage collections than it does alone, and the ratio would look worse
    than it is (each full collection walks every live object)."""
    content = validate(sources, TODAY).exams[0]
    out.mkdir(parents=True, exist_ok=True)
    inputs, when = exam_inputs(content), dt.datetime(2026, 11, 29, tzinfo=dt.UTC)
    # the view is part of the cost: it generates the questions the bank holds
    return median_seconds(lambda: render(RenderContext(build_view(inputs, when=when), out)), repeat=repeat)


def measure() -> list[Measure]:
    with tempfile.TemporaryDirectory(prefix="bench-scaling-") as tmp:
        root = Path(tmp)
        sources = {scale: make_exam(root / f"x{scale}", scale) for scale in (1, 10, 100)}
        v1, v10 = _validate_seconds(sources[1], repeat=15), _validate_seconds(sources[10], repeat=7)
        b10 = _bank_seconds(sources[10], root / "out10", repeat=7)
        b100 = _bank_seconds(sources[100], root / "out100", repeat=3)
    detail = (f"validate 1x {v1 * 1000:.0f} ms, 10x {v10 * 1000:.0f} ms; "
              f"bank 10x {b10 * 1000:.0f} ms, 100x {b100 * 1000:.0f} ms (100x/10x {b100 / b10:.2f}, linear 10)")
    return [Measure("validate_scaling", round(v10 / (10 * v1), 3), "<= 1.25", detail)]
