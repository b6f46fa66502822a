"""Cross-references (`see:`) between objectives, of one exam or two: checked by validate, shown by the
guide with the target's title and on the back of the deck's key point note."""

from __future__ import annotations

import datetime as dt

from pipeline.check.validate import validate
from pipeline.derive import build_view
from pipeline.render import RenderContext
from pipeline.render.anki.deck_notes import notes
from pipeline.render.guide.pdf import guide_html, render
from pipeline.settings.reader import exam_inputs
from tests.conftest import FIXTURES, TODAY, add_exam

VALID = (FIXTURES / "objectives" / "valid.yaml").read_text(encoding="utf-8")
POINT = "    text: Things are {{c1::made of stuff}}.\n"


def two_exams(make_sources, point_see: str, objective_see: str = ""):
    """Exam `demo` whose key point (and objective) point at `other`'s objective 1.1 ("Basics of things")."""
    sources = make_sources("valid")
    text = VALID.replace(POINT, f"{POINT}    see: {point_see}\n").replace("reviewed: 2026-11-01\n", f"reviewed: 2026-11-01\n{objective_see}")
    (sources / "demo" / "valid.yaml").write_text(text, encoding="utf-8")
    other = add_exam(sources, "other", "valid")
    exam = other / "exam.yaml"
    exam.write_text(exam.read_text().replace("code: DEMO-1", "code: OTHER-2"))
    return sources


def demo_view(sources):
    result = validate(sources, dt.date.fromisoformat(TODAY))
    assert result.ok, [d.format() for d in result.report.sorted()]
    content = next(e for e in result.exams if e.exam.id == "demo")
    return build_view(exam_inputs(content))


def test_a_reference_to_another_exams_objective_renders_with_its_title(make_sources, tmp_path):
    view = demo_view(two_exams(make_sources, '{exam: other, objective: "1.1"}', 'see: {objective: "1.1"}\n'))
    html = guide_html(RenderContext(view, tmp_path))
    assert '<p class="see">See OTHER-2 1.1 Basics of things</p>' in html
    assert '<p class="see">See <a href="#objective-1.1">1.1 Basics of things</a></p>' in html  # within the exam: a link
    (point_note,) = [n for n in notes(view) if n.fields[-1] == "1.1-things"]  # the key point's cloze note (Ref field)
    assert point_note.fields[1].endswith('<p class="see">See OTHER-2 1.1 Basics of things</p>')
    [pdf] = render(RenderContext(view, tmp_path))
    assert pdf.stat().st_size > 0


def test_a_reference_to_an_absent_exam_shows_its_id_and_number(make_sources, tmp_path):
    sources = two_exams(make_sources, '{exam: elsewhere, objective: "3.2"}')
    result = validate(sources, dt.date.fromisoformat(TODAY))
    assert [d.message for d in result.report.warnings] == [
        "key_points[0].see.exam: exam 'elsewhere' is not in the sources; the reference cannot be checked until it is added"]
    content = next(e for e in result.exams if e.exam.id == "demo")
    html = guide_html(RenderContext(build_view(exam_inputs(content)), tmp_path))
    assert '<p class="see">See elsewhere 3.2</p>' in html
