"""pdf_overhead: the PDF stage on the sample (context, templates, weasyprint, writing the file) over
weasyprint alone printing the same final HTML. What the guide's own code costs on top of weasyprint.

The two are timed one after the other on a shared machine, so a ratio within a few percent of 1 is
noise; the detail also shows the HTML step on its own."""

from __future__ import annotations

import datetime as dt
import tempfile
from pathlib import Path

from bench import Measure, median_seconds
from pipeline.check.validate import validate
from pipeline.derive import build_view
from pipeline.render import RenderContext
from pipeline.render.guide.fetcher import serving
from pipeline.render.guide.html import GUIDE_TEMPLATES
from pipeline.render.guide.pdf import guide_html, html_to_pdf, render
from pipeline.settings.reader import exam_inputs

SAMPLE = Path(__file__).resolve().parent.parent / "sources"
TODAY = dt.date(2026, 11, 29)  # any date after the sample's reviews: the bench must not depend on the clock


def _sample_context(out_dir: Path) -> RenderContext:
    content = validate(SAMPLE, TODAY).exams[0]
    return RenderContext(build_view(exam_inputs(content)), out_dir)


def measure() -> list[Measure]:
    with tempfile.TemporaryDirectory() as folder:
        ctx = _sample_context(Path(folder))
        html = guide_html(ctx)
        stage = median_seconds(lambda: render(ctx))
        with serving(ctx.view.media, GUIDE_TEMPLATES):  # the figures, as render() serves them: the same PDF
            alone = median_seconds(lambda: html_to_pdf(html))
        own = median_seconds(lambda: guide_html(ctx))  # the guide's own code: context and templates
    detail = f"PDF stage {stage:.2f} s (the guide's HTML: {own * 1000:.0f} ms, {len(html) // 1024} KiB), weasyprint alone {alone:.2f} s"
    return [Measure("pdf_overhead", stage / alone, "<= 1.15", detail)]
