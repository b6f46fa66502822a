"""Builds are atomic: outputs are staged and replace the old ones only when every renderer succeeded."""

from __future__ import annotations

import datetime as dt

import pytest

from pipeline import build as build_module
from pipeline.render import RenderContext
from pipeline.validate import validate
from tests.conftest import TODAY


def _content(make_sources):
    return validate(make_sources("valid"), dt.date.fromisoformat(TODAY)).exams


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
    written = build_module.build(_content(make_sources), tmp_path / "out")
    assert sorted(p.name for p in written) == ["a.txt", "b.txt"]
    assert (tmp_path / "out" / "demo" / "a.txt").read_text() == "new"
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["demo"]  # no staging folder left


def test_a_failing_renderer_replaces_nothing(make_sources, tmp_path, monkeypatch):
    old = tmp_path / "out" / "demo" / "a.txt"
    old.parent.mkdir(parents=True)
    old.write_text("old")
    monkeypatch.setattr(build_module, "RENDERERS", {"a": _writes("a.txt", "new"), "b": _fails})
    with pytest.raises(RuntimeError):
        build_module.build(_content(make_sources), tmp_path / "out")
    assert old.read_text() == "old"
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["demo"]


def test_source_date_defaults_to_latest_review(make_sources, monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    content = _content(make_sources)[0]
    assert build_module.source_date(content) == dt.datetime(2026, 11, 1, tzinfo=dt.UTC)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1798156800")
    assert build_module.source_date(content) == dt.datetime(2026, 12, 25, tzinfo=dt.UTC)
