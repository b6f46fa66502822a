"""`code` and `output` keep their leading whitespace, from the source to the guide and the site: a table
whose header starts with a space (psql's) prints aligned. `language` is checked against Pygments' list."""

from __future__ import annotations

import subprocess

import pytest
from bs4 import BeautifulSoup

from pipeline import build
from pipeline.check.validate import validate
from pipeline.render import RENDERERS
from pipeline.settings.reader import exam_inputs
from tests.conftest import TODAY

OUTPUT = " id | name\n----+-------\n  1 | rock\n  2 | tree\n(2 rows)"
CODE = "SELECT id, name\n  FROM things;"


def _built(make_sources, tmp_path, monkeypatch, *names):
    sources = make_sources("valid", "indented_output")
    monkeypatch.setattr(build, "RENDERERS", {name: RENDERERS[name] for name in names})
    import datetime as dt

    checked = validate(sources, dt.date.fromisoformat(TODAY))
    assert checked.ok, [d.format() for d in checked.report.errors]
    build.build([exam_inputs(content) for content in checked.buildable], tmp_path / "out")
    return checked, tmp_path / "out" / "demo"


def test_the_model_keeps_leading_spaces_and_drops_only_the_closing_newline(make_sources):
    import datetime as dt

    checked = validate(make_sources("valid", "indented_output"), dt.date.fromisoformat(TODAY))
    [example] = next(o for o in checked.exams[0].objectives if o.id == "1.2").examples
    assert (example.code, example.output) == (CODE, OUTPUT)


def test_indented_output_survives_into_the_site(make_sources, tmp_path, monkeypatch):
    _, out = _built(make_sources, tmp_path, monkeypatch, "site")
    page = BeautifulSoup((out / "site" / "objective-1-2.html").read_text(encoding="utf-8"), "html.parser")
    assert page.select_one("pre.output samp").get_text() == OUTPUT
    assert page.select_one("pre.code code").get_text() == CODE
    assert page.select_one("pre.code code")["class"] == ["language-sql"]


def test_indented_output_prints_aligned_in_the_guide(make_sources, tmp_path, monkeypatch):
    _, out = _built(make_sources, tmp_path, monkeypatch, "guide")
    text = subprocess.run(["pdftotext", "-layout", str(out / "study-guide.pdf"), "-"], capture_output=True, text=True, check=True).stdout
    lines = text.splitlines()
    header = next(line for line in lines if "id | name" in line)
    rule = next(line for line in lines if "----+-------" in line)
    row = next(line for line in lines if "1 | rock" in line)
    assert header.index("|") == rule.index("+") == row.index("|")  # the header's leading space kept: columns line up


@pytest.mark.parametrize(("language", "warned"), [("sql", False), ("console", False), ("pyhton", True)])
def test_language_is_checked_against_pygments(run_cli, make_sources, language, warned):
    sources = make_sources("valid", "indented_output")
    path = sources / "demo" / "indented_output.yaml"
    path.write_text(path.read_text().replace("language: sql", f"language: {language}"))
    result = run_cli("validate", "--today", TODAY, cwd=sources.parent)
    lines = [line for line in result.lines if line.endswith("[example-language]")]
    expected = ["sources/demo/indented_output.yaml:15:15: warning: examples[0].language: 'pyhton' is not a language Pygments knows; "
                "did you mean 'python'? (use a lexer name such as python, bash, console, sql or text) [example-language]"]
    assert lines == (expected if warned else [])
