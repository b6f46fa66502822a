"""A child process of bench/build.py: one cold build of SOURCES into OUT (validate, then every output, as
`python -m pipeline build` does), each renderer timed. Prints one JSON line: seconds per renderer, the
whole build's seconds, the study guide's pages and the peak resident memory of this process (KiB).

`python -m bench.buildprobe SOURCES OUT TODAY`
"""

from __future__ import annotations

import datetime as dt
import json
import resource
import sys
import time
from pathlib import Path

from pypdf import PdfReader

from pipeline import build as build_module
from pipeline.check.validate import validate
from pipeline.render import RENDERERS, Renderer, load
from pipeline.settings.reader import exam_inputs


def _timed(name: str, entry: object, seconds: dict[str, float]) -> Renderer:
    render = load(entry)

    def run(ctx):
        started = time.perf_counter()
        paths = render(ctx)
        seconds[name] = time.perf_counter() - started
        return paths

    return run


def main(sources: str, out: str, today: str) -> None:
    seconds: dict[str, float] = {}
    build_module.RENDERERS = {name: _timed(name, entry, seconds) for name, entry in RENDERERS.items()}
    started = time.perf_counter()
    exams = validate(Path(sources), dt.date.fromisoformat(today), inputs=exam_inputs).buildable
    build_module.build([exam_inputs(content) for content in exams], Path(out))
    total = time.perf_counter() - started
    pages = len(PdfReader(Path(out) / exams[0].exam.id / "study-guide.pdf").pages)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"seconds": seconds, "total": total, "guide_pages": pages, "peak_kib": peak}))


if __name__ == "__main__":
    main(*sys.argv[1:4])
