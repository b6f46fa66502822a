"""Hostile and pathological inputs end in time proportional to their size (issue 13).

- deep_extract_vs_parse: visible text of a page nested 200,000 elements deep over libxml2 parsing the
  same page alone (a no-op target): extraction adds a constant factor, however deep the page (the Python
  work per element against libxml2's C; 1.6 to 5.8 on a loaded machine, where the old tree walk took
  about 30 minutes);
- deep_vs_flat: the same extraction per byte on the deep page over a flat page of the same size;
- many_questions_per_item, many_objectives_per_item: the study guide of one objective with 2,000
  questions, and of 400 objectives, per item (objective, key point, term, question) over the sample's
  guide per item. Quadratic page references or layout would show as a ratio growing with the size.
"""

from __future__ import annotations

import datetime as dt
import tempfile
import time
from pathlib import Path

from lxml import etree

from bench import Measure, median_seconds
from bench.pathological import make
from pipeline.check.validate import validate
from pipeline.citations.pagetext import visible_text
from pipeline.derive import build_view
from pipeline.render import RenderContext
from pipeline.render.guide.pdf import render
from pipeline.settings.reader import exam_inputs

SAMPLE = Path(__file__).resolve().parent.parent / "sources"
TODAY = dt.date(2026, 11, 29)
DEPTH = 200_000
# Large enough that a layout quadratic in the items would show as a ratio well past 2, small enough that the
# whole `make bench` fits in 15 minutes (5,000 and 1,000 took about 15 minutes alone on a loaded machine).
QUESTIONS, OBJECTIVES = 2000, 400


class _Nothing:
    def start(self, tag, attrib): pass
    def end(self, tag): pass
    def data(self, data): pass
    def close(self): return None


def _parse_only(html: str) -> None:
    parser = etree.HTMLParser(target=_Nothing(), huge_tree=True, no_network=True)
    parser.feed(html)
    parser.close()


def measure_nesting() -> list[Measure]:
    deep = "<div>" * DEPTH + "<p>the quoted words</p>" + "</div>" * DEPTH
    flat = "<p>x</p><i>y</i>" * (len(deep) // 16)
    extract, parse = median_seconds(lambda: visible_text(deep), 3), median_seconds(lambda: _parse_only(deep), 3)
    flat_extract = median_seconds(lambda: visible_text(flat), 3)
    per_byte = (extract / len(deep)) / (flat_extract / len(flat))
    detail = f"{DEPTH:,} deep, {len(deep) / 1e6:.1f} MB: text {extract:.2f} s, parse alone {parse:.2f} s; flat page of {len(flat) / 1e6:.1f} MB: {flat_extract:.2f} s"
    return [Measure("deep_extract_vs_parse", extract / parse, "<= 8", detail), Measure("deep_vs_flat", per_byte, "<= 1.5", "extraction per byte, deep over flat")]


def _guide_seconds(sources: Path, out: Path) -> tuple[float, int]:
    content = validate(sources, TODAY).exams[0]
    items = sum(1 + len(o.key_points) + len(o.terms) + len(o.questions) for o in content.objectives)
    ctx = RenderContext(build_view(exam_inputs(content)), out)
    started = time.perf_counter()
    render(ctx)
    return time.perf_counter() - started, items


def measure_sizes() -> list[Measure]:
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        sample, sample_items = min(_guide_seconds(SAMPLE, base) for _ in range(3))
        per_item = sample / sample_items
        found = []
        for key, objectives, questions in (("many_questions_per_item", 1, QUESTIONS), ("many_objectives_per_item", OBJECTIVES, 1)):
            sources, _ = make(base / key, objectives, questions)
            seconds, items = _guide_seconds(sources, base)
            detail = f"{items:,} items in {seconds:.0f} s ({seconds / items * 1000:.0f} ms each); sample: {sample_items} items in {sample:.1f} s"
            found.append(Measure(key, (seconds / items) / per_item, "<= 2", detail))
    return found


def measure() -> list[Measure]:
    return [*measure_nesting(), *measure_sizes()]
