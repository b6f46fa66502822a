"""Markdown is rendered once per text per build, whichever outputs show it (pipeline/text/markdown.py)."""

from __future__ import annotations

import datetime as dt

from pipeline.check.validate import validate
from pipeline.derive import build_view
from pipeline.render import RenderContext, bank
from pipeline.render.guide.pdf import guide_html
from pipeline.render.lms import canvas, gift, moodle, qti21
from pipeline.settings.reader import exam_inputs
from pipeline.text import markdown
from tests.conftest import FULL, TODAY

OUTPUTS = {"bank": bank.render, "moodle": moodle.render, "gift": gift.render, "qti21": qti21.render,
           "canvas": canvas.render, "guide": guide_html}


def test_each_text_is_rendered_once_for_every_output(tmp_path):
    content = validate(FULL, dt.date.fromisoformat(TODAY)).exams[0]
    view = build_view(exam_inputs(content))
    alone = {}
    for name, render in OUTPUTS.items():  # each output from an empty cache: what it renders on its own
        markdown.new_build()
        (tmp_path / name).mkdir()
        render(RenderContext(view, tmp_path / name))
        alone[name] = markdown.renderings()
    assert all(alone.values())
    markdown.new_build()
    for name, render in OUTPUTS.items():
        render(RenderContext(view, tmp_path / name))
    together = markdown.renderings()
    assert together < sum(alone.values())  # texts shown by several outputs were rendered once
    for name, render in OUTPUTS.items():  # a second pass over every output renders nothing new
        render(RenderContext(view, tmp_path / name))
    assert markdown.renderings() == together
    markdown.new_build()
    assert markdown.renderings() == 0
