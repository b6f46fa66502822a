"""The outputs say what the examples lock says: under each example the guide, the site and the deck print
where and when it ran, and mark one never run or drifted. The deck gains a card per example."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from html import unescape

from pipeline.check.validate import validate
from pipeline.derive import build_view
from pipeline.examples.lock import ExamplesLock, LockEntry, RunEnvironment, example_hash
from pipeline.examples.requirements import requirement_set
from pipeline.render import RenderContext
from pipeline.render.anki.deck_notes import notes
from pipeline.render.anki.note_types import EXAMPLE
from pipeline.render.guide.context import build_guide
from pipeline.render.guide.html import render_html
from pipeline.render.site.site import render as render_site
from pipeline.settings.reader import exam_inputs
from schema.example_status import ExampleStatus
from tests.kit.examples import example_yaml, write_exam

DAY = dt.date(2026, 11, 30)
TORCH = RunEnvironment("3.11.2", "linux-x86_64", "cpu", "namespace", (("torch", "2.13.0+cpu"),), (("torch", "2.13.0+cpu"),))


def _view(tmp_path, statuses: dict[str, ExampleStatus]):
    examples = [example_yaml(i, f"print('{i}')", i) for i in statuses]
    sources = write_exam(tmp_path, examples, exam_extra="checks: {example-drifted: warning, example-not-run: warning}\n")
    content = validate(sources, DAY).exams[0]
    lock = ExamplesLock(content.folder / "examples.lock.json")
    for file in content.objective_files:
        for _, example in file.indexed("examples"):
            status = statuses[example.id]
            if status is not ExampleStatus.NOT_RUN:
                lock.entries[example.id] = LockEntry(example.id, status, example_hash(example, requirement_set((), example)), DAY, TORCH,
                                                     actual="something else" if status is ExampleStatus.DRIFTED else None)
    return build_view(dataclasses.replace(exam_inputs(content), examples=lock))


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


STATUSES = {"1.1-ok": ExampleStatus.REPRODUCED, "1.1-drift": ExampleStatus.DRIFTED, "1.1-new": ExampleStatus.NOT_RUN}


def test_the_view_says_where_and_when_each_example_ran(tmp_path):
    shown = {e.id: e for e in _view(tmp_path, STATUSES).objective("1.1").examples}
    assert shown["1.1-ok"].run_text == "ran on 2026-11-30 with Python 3.11, torch 2.13.0 (CPU)"
    assert shown["1.1-drift"].run_text == "output has changed since it was recorded: last run on 2026-11-30 with Python 3.11, torch 2.13.0 (CPU)"
    assert shown["1.1-new"].run_text == "not yet run by the pipeline"


def test_an_example_edited_since_its_run_shows_as_not_run(tmp_path):
    view = _view(tmp_path, {"1.1-ok": ExampleStatus.REPRODUCED})
    content = validate(tmp_path / "sources", DAY).exams[0]
    path = content.objective_files[0].path
    path.write_text(path.read_text().replace("print('1.1-ok')", "print('1.1-ok!')"))
    lock = ExamplesLock(content.folder / "x.json", {e.id: LockEntry(e.id, ExampleStatus.REPRODUCED, "sha256:old", DAY, TORCH)
                                                      for e in view.objective("1.1").examples})
    edited = build_view(dataclasses.replace(exam_inputs(validate(tmp_path / "sources", DAY).exams[0]), examples=lock))
    assert edited.objective("1.1").examples[0].status is ExampleStatus.NOT_RUN


def test_the_guide_prints_the_run_under_each_example_and_marks_the_others(tmp_path):
    view = _view(tmp_path, STATUSES)
    text = _text(render_html(build_guide(RenderContext(view, tmp_path / "out"))))
    assert "Output 1.1-ok ran on 2026-11-30 with Python 3.11, torch 2.13.0 (CPU)" in text
    assert "Check: output has changed since it was recorded: last run on 2026-11-30" in text
    assert "Check: not yet run by the pipeline" in text
    assert 'id="example-1.1-ok"' in render_html(build_guide(RenderContext(view, tmp_path / "out")))


def test_the_site_prints_the_run_under_each_example(tmp_path):
    view = _view(tmp_path, STATUSES)
    out = tmp_path / "site-out"
    out.mkdir()
    render_site(RenderContext(view, out))
    page = (out / "site" / "objective-1-1.html").read_text(encoding="utf-8")
    assert 'id="example-1.1-ok"' in page and 'class="example example-flagged" id="example-1.1-drift"' in page
    assert "ran on 2026-11-30 with Python 3.11, torch 2.13.0 (CPU)" in _text(page)
    assert "Check: not yet run by the pipeline" in _text(page)


def test_the_deck_gains_a_card_per_example_with_its_run_on_the_back(tmp_path):
    view = _view(tmp_path, STATUSES)
    cards = {n.fields[-1]: n for n in notes(view) if n.note_type is EXAMPLE}
    assert len(cards) == 3
    ok = cards[next(k for k in cards if "1.1-ok" in k)]
    title, code, output, _note, run, _context, _ref = ok.fields
    assert (code, output, run) == ("print(&#x27;1.1-ok&#x27;)", "1.1-ok", "ran on 2026-11-30 with Python 3.11, torch 2.13.0 (CPU)")
    assert "DEMO-1::type::example" in ok.tags
    drifted = cards[next(k for k in cards if "1.1-drift" in k)]
    assert drifted.fields[4].startswith("<strong>Check:</strong> output has changed")
