"""`lms_export_vs_bank`: the four LMS exports' time per question over the bank's time per question.

Both sides render the same exam view (a 10x synthetic exam, bench/synthetic.py) into a temporary
folder, in turns, so a slow moment of a shared machine hits both alike. The exports' side is the four
renderers together (moodle.xml, questions.gift, qti21.zip, canvas-qti.zip); the bank's side is
bank.json. The bank writes every question once as JSON, each export once in its own format; with the
Markdown rendered once per text for all of them (pipeline/text/markdown.py), the four together cost at
most twice the bank (goal 2).
"""

from __future__ import annotations

import datetime as dt
import statistics
import tempfile
from pathlib import Path

from bench import Measure, median_seconds
from bench.synthetic import make_exam
from pipeline.check.validate import validate
from pipeline.derive import build_view
from pipeline.render import RenderContext, bank
from pipeline.render.lms import canvas, gift, moodle, qti21
from pipeline.settings.reader import exam_inputs

TODAY = dt.date(2026, 11, 29)
EXPORTS = (moodle, gift, qti21, canvas)


def _exports(ctx: RenderContext) -> None:
    for module in EXPORTS:
        module.render(ctx)


def measure() -> list[Measure]:
    with tempfile.TemporaryDirectory() as tmp:
        sources = make_exam(Path(tmp, "sources"), 10)
        content = validate(sources, TODAY).exams[0]
        out = Path(tmp, "out")
        out.mkdir()
        ctx = RenderContext(build_view(exam_inputs(content)), out)
        questions = len(ctx.view.questions)
        pairs = [(median_seconds(lambda: _exports(ctx), repeat=1), median_seconds(lambda: bank.render(ctx), repeat=1)) for _ in range(7)]
    ours, theirs = statistics.median(p[0] for p in pairs), statistics.median(p[1] for p in pairs)
    detail = (f"4 exports {ours / questions * 1e6:.0f} us/question vs bank {theirs / questions * 1e6:.0f} us/question "
              f"({questions} questions, 10x synthetic)")
    return [Measure("lms_export_vs_bank", ours / theirs, "<= 2", detail)]
