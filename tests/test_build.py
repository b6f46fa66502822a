"""Builds are atomic: outputs are staged and replace the old ones only when every renderer succeeded."""

from __future__ import annotations

import datetime as dt
import json

from pypdf import PdfReader

from pipeline import build as build_module
from pipeline.check.validate import validate
from pipeline.render import Output, RenderContext
from pipeline.settings.reader import exam_inputs
from tests.conftest import TODAY


def _content(make_sources):
    return validate(make_sources("valid"), dt.date.fromisoformat(TODAY)).exams


def _inputs(exams):
    """Each exam's inputs, read as the command line reads them (pipeline/settings/reader.py)."""
    return [exam_inputs(content) for content in exams]


def _writes(name: str, text: str):
    def render(ctx: RenderContext):
        path = ctx.out_dir / name
        path.write_text(text, encoding="utf-8")
        return [path]

    return render


def _fails(ctx: RenderContext):
    raise RuntimeError("renderer broke")


def test_outputs_move_into_place(make_sources, tmp_path, monkeypatch):
    monkeypatch.setattr(build_module, "RENDERERS", {"a": _writes("a.txt", "new"), "b": _writes("b.txt", "new")})
    result = build_module.build(_inputs(_content(make_sources)), tmp_path / "out")
    assert sorted(p.name for p in result.written) == ["a.txt", "b.txt"]
    assert (tmp_path / "out" / "demo" / "a.txt").read_text() == "new"
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [".generations", ".pipeline-output", "demo"]
    assert sorted(p.name for p in (tmp_path / "out" / ".generations").iterdir()) == [".lock", ".pipeline-output", "demo-1", "demo-1.state.json"]


def test_a_failing_renderer_replaces_nothing(make_sources, tmp_path, monkeypatch):
    old = tmp_path / "out" / "demo" / "a.txt"
    content = _content(make_sources)
    monkeypatch.setattr(build_module, "RENDERERS", {"a": _writes("a.txt", "old")})
    assert build_module.build(_inputs(content), tmp_path / "out").written == [old]
    monkeypatch.setattr(build_module, "RENDERERS", {"a": _writes("a.txt", "new"), "b": _fails})
    result = build_module.build(_inputs(content), tmp_path / "out", force=True)
    assert isinstance(result.failed["demo"], RuntimeError) and result.written == []  # said, not raised: other exams go on
    assert old.read_text() == "old"
    # the failed generation 2 was removed
    assert sorted(p.name for p in (tmp_path / "out" / ".generations").iterdir()) == [".lock", ".pipeline-output", "demo-1", "demo-1.state.json"]


def test_source_date_defaults_to_latest_review(make_sources, monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    content = _content(make_sources)[0]
    assert exam_inputs(content).source_date == dt.datetime(2026, 11, 1, tzinfo=dt.UTC)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1798156800")
    assert exam_inputs(content).source_date == dt.datetime(2026, 12, 25, tzinfo=dt.UTC)


class _Counting:
    """A renderer that counts its runs, to see which builds redo it."""

    def __init__(self, name: str) -> None:
        self.name, self.runs = name, 0

    def __call__(self, ctx: RenderContext):
        self.runs += 1
        return _writes(self.name, f"run {self.runs}")(ctx)


def test_unchanged_inputs_skip_the_renderer_and_leave_the_file_alone(make_sources, tmp_path, monkeypatch):
    renderer = _Counting("a.txt")
    monkeypatch.setattr(build_module, "RENDERERS", {"a": Output(renderer, ("",), options=("paper",))})
    sources, out = make_sources("valid"), tmp_path / "out"
    exams = validate(sources, dt.date.fromisoformat(TODAY)).exams
    build_module.build(_inputs(exams), out)
    first = (out / "demo" / "a.txt").stat()
    again = build_module.build(_inputs(exams), out)
    assert (renderer.runs, again.written, [p.name for p in again.unchanged]) == (1, [], ["a.txt"])
    assert (out / "demo" / "a.txt").stat().st_mtime_ns == first.st_mtime_ns

    source = sources / "demo" / "valid.yaml"
    source.write_text(source.read_text() + "\n# a comment\n")
    build_module.build(_inputs(validate(sources, dt.date.fromisoformat(TODAY)).exams), out)
    assert renderer.runs == 1  # nothing the view shows changed
    source.write_text(source.read_text().replace("title: ", "title: Edited ", 1))
    exams = validate(sources, dt.date.fromisoformat(TODAY)).exams
    build_module.build(_inputs(exams), out)
    assert renderer.runs == 2  # a title changed
    build_module.build(_inputs(exams), out, force=True)
    assert renderer.runs == 3
    build_module.build(_inputs(exams), out, options={"paper": "letter"})
    assert renderer.runs == 4  # an option changed
    (out / "demo" / "a.txt").unlink()
    build_module.build(_inputs(exams), out, options={"paper": "letter"})
    assert (renderer.runs, (out / "demo" / "a.txt").read_text()) == (5, "run 5")  # an output went missing


def test_a_build_does_not_import_the_network_stack():
    """Only the chosen verb's module is imported: `build` must not pay for audit's requests/lxml/pypdf
    (a no-op rebuild is mostly start-up, see `make bench`'s noop_rebuild_ratio)."""
    import subprocess
    import sys

    from tests.conftest import ROOT

    probe = "import sys; from pipeline.cli import make_parser; make_parser(['build']); print(sorted(m for m in ('requests', 'lxml', 'pypdf', 'weasyprint', 'genanki') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_comment_or_whitespace_edit_rebuilds_nothing(run_cli, make_sources, tmp_path):
    """Every real output, built twice around an edit the exam view cannot see: the second build writes nothing."""
    sources, out = make_sources("valid"), tmp_path / "out"
    assert run_cli("build", "--sources", str(sources), "--today", TODAY, "--out", str(out)).code == 0
    before = {p: p.read_bytes() for p in (out / "demo").rglob("*") if p.is_file()}
    stamps = {p: p.stat().st_mtime_ns for p in before}
    source = sources / "demo" / "valid.yaml"
    lines = source.read_text().splitlines()
    lines[0] += "   # an edited comment"  # a comment at the end of a line, and trailing spaces: no line moves
    lines[-1] += "   "
    source.write_text("\n".join(lines) + "\n\n\n")
    again = run_cli("build", "--sources", str(sources), "--today", TODAY, "--out", str(out))
    assert again.code == 0
    assert {p: p.stat().st_mtime_ns for p in before} == stamps and {p: p.read_bytes() for p in before} == before
    assert "wrote " not in again.err
    assert [line for line in again.err.splitlines() if "unchanged" in line and "written" not in line] == [
        "demo: unchanged: guide, deck, bank, site, moodle, gift, qti21, canvas (inputs did not change; --force rebuilds, -v lists the files)"]
    listed = run_cli("build", "-v", "--sources", str(sources), "--today", TODAY, "--out", str(out))
    assert listed.err.count("\nunchanged ") == len(before), listed.err


def test_a_comment_line_that_moves_questions_rebuilds_only_the_bank(run_cli, make_sources, tmp_path):
    """bank.json records each question's source line; the guide and the deck do not show it."""
    sources, out = make_sources("valid"), tmp_path / "out"
    run_cli("build", "--sources", str(sources), "--today", TODAY, "--out", str(out))
    # files, not folders: each build publishes a new generation folder, whose unchanged files are hard links
    stamps = {str(p.relative_to(out / "demo")): p.stat().st_mtime_ns for p in (out / "demo").rglob("*") if p.is_file()}
    source = sources / "demo" / "valid.yaml"
    source.write_text(source.read_text().replace("\nquestions:", "\n# practice\nquestions:", 1))
    run_cli("build", "--sources", str(sources), "--today", TODAY, "--out", str(out))
    changed = sorted(name for name, stamp in stamps.items() if (out / "demo" / name).stat().st_mtime_ns != stamp)
    assert changed == ["bank.json"]


def test_paper_letter_after_a4_rewrites_only_the_guide(run_cli, make_sources, tmp_path):
    """An option belongs to the outputs that declare it (`Output.options`): the paper size is the guide's."""
    sources, out = make_sources("valid"), tmp_path / "out"
    assert run_cli("build", "--sources", str(sources), "--today", TODAY, "--out", str(out)).code == 0
    stamps = {str(p.relative_to(out / "demo")): p.stat().st_mtime_ns for p in (out / "demo").rglob("*") if p.is_file()}
    letter = run_cli("build", "--sources", str(sources), "--today", TODAY, "--out", str(out), "--paper", "letter", "-v")
    assert letter.code == 0, letter.err
    changed = sorted(name for name, stamp in stamps.items() if (out / "demo" / name).stat().st_mtime_ns != stamp)
    assert changed == ["study-guide.pdf"] and len(stamps) > 10
    wrote = [line for line in letter.err.splitlines() if line.startswith("wrote ")]
    assert len(wrote) == 1 and wrote[0].endswith("/demo/study-guide.pdf"), letter.err
    width, height = PdfReader(out / "demo" / "study-guide.pdf").pages[0].mediabox.upper_right
    assert (round(float(width)), round(float(height))) == (612, 792)  # US letter, in points


def test_the_deck_keeps_its_note_times_beside_the_sources_through_the_build(run_cli, make_sources, tmp_path):
    """The renderer hands its state to the build, which writes it once the outputs are published."""
    sources, out = make_sources("valid"), tmp_path / "out"
    state = sources / "demo" / "deck.state.json"
    assert not state.exists()
    assert run_cli("build", "--sources", str(sources), "--today", TODAY, "--out", str(out), "--only", "deck").code == 0  # the deck's state
    first = json.loads(state.read_text(encoding="utf-8"))["notes"]
    assert first and all(set(entry) == {"hash", "mod"} for entry in first.values())
    stamp = state.stat().st_mtime_ns
    assert run_cli("build", "--sources", str(sources), "--today", TODAY, "--out", str(out), "--force", "--only", "deck").code == 0
    assert state.stat().st_mtime_ns == stamp  # the same notes: nothing to write


def test_a_deleted_objective_leaves_no_page_behind(make_sources, tmp_path, monkeypatch):
    """Each build publishes a fresh generation: a page the site no longer writes is not carried over."""
    from pipeline.render import RENDERERS

    monkeypatch.setattr(build_module, "RENDERERS", {"site": RENDERERS["site"]})
    sources, out = make_sources("valid", "match_and_order"), tmp_path / "out"
    build_module.build(_inputs(validate(sources, dt.date.fromisoformat(TODAY)).exams), out)
    pages = sorted(p.name for p in (out / "demo" / "site").glob("objective-*.html"))
    assert pages == ["objective-1-1.html", "objective-2-1.html"]
    (sources / "demo" / "match_and_order.yaml").unlink()
    build_module.build(_inputs(validate(sources, dt.date.fromisoformat(TODAY)).exams), out)
    assert sorted(p.name for p in (out / "demo" / "site").glob("objective-*.html")) == ["objective-1-1.html"]


def test_an_option_rebuilds_only_the_outputs_that_declare_it(make_sources, tmp_path, monkeypatch):
    guide, deck = _Counting("g.txt"), _Counting("d.txt")
    monkeypatch.setattr(build_module, "RENDERERS", {"guide": Output(guide, ("",), options=("paper",)), "deck": Output(deck, ("",))})
    exams = validate(make_sources("valid"), dt.date.fromisoformat(TODAY)).exams
    out = tmp_path / "out"
    build_module.build(_inputs(exams), out)
    built = build_module.build(_inputs(exams), out, options={"paper": "letter"})
    assert (guide.runs, deck.runs) == (2, 1)
    assert built.outcomes == {"demo": {"guide": "written", "deck": "unchanged"}}


def test_only_builds_the_named_outputs_and_keeps_the_others_as_they_were(make_sources, tmp_path, monkeypatch):
    guide, deck = _Counting("g.txt"), _Counting("d.txt")
    monkeypatch.setattr(build_module, "RENDERERS", {"guide": Output(guide, ("",)), "deck": Output(deck, ("",))})
    sources, out = make_sources("valid"), tmp_path / "out"
    exams = validate(sources, dt.date.fromisoformat(TODAY)).exams
    first = build_module.build(_inputs(exams), out, only=["deck"])
    assert (guide.runs, deck.runs, [p.name for p in first.written]) == (0, 1, ["d.txt"])
    assert not (out / "demo" / "g.txt").exists()
    build_module.build(_inputs(exams), out)
    source = sources / "demo" / "valid.yaml"
    source.write_text(source.read_text().replace("title: ", "title: Edited ", 1))
    exams = validate(sources, dt.date.fromisoformat(TODAY)).exams
    build_module.build(_inputs(exams), out, only=["guide"])
    assert (guide.runs, deck.runs) == (2, 1)
    assert (out / "demo" / "d.txt").read_text() == "run 1"  # carried over, not rebuilt
    build_module.build(_inputs(exams), out)  # the deck's inputs changed since its last build: now it runs
    assert (guide.runs, deck.runs) == (2, 2)
