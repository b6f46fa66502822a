"""Uploads read by `stats` (issue 37, item 6): cells the site's export neutralised are read as the learner wrote
them, and an upload's file name is text in every report (no HTML, no link, no table break, no terminal escape)."""

from __future__ import annotations

import csv
import json

import pytest

from pipeline.stats.csvfile import read_table
from tests.kit import stats as kit

HOSTILE_NAME = "<img src=x onerror=alert(1)>|[click](javascript:alert(1))|\x1b]0;pwned\x07\x1b[2J&amp;.csv"


def test_neutralised_cells_are_read_back_as_written(tmp_path):
    path = tmp_path / "answers.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([["learner", "question_id", "response", "score", "time"],
                                      *([f"u{i}", "q", cell, "1", ""] for i, cell in enumerate(
                                          ["'=SUM(A1)", "'+cmd|x", "'-5", "'@SUM(1)", "'\tx", "'\rx", "'plain", "''=x", "=raw", "it's"]))])
    assert [row[2] for row in read_table(path).rows[1:]] == ["=SUM(A1)", "+cmd|x", "-5", "@SUM(1)", "\tx", "\rx", "'plain", "'=x", "=raw", "it's"]


@pytest.fixture
def uploaded(tmp_path):
    sources = kit.write_exam(tmp_path)
    answers = tmp_path / HOSTILE_NAME
    with answers.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([["learner", "question_id", "response", "score", "time"],
                                      *([f"u{i}", kit.qid(j), "a", "", ""] for i in range(4) for j in range(3)),
                                      ["u9", "9.9-q1", "a", "", ""]])  # an unmatched row: the file is named in that list too
    return sources, answers


def test_an_upload_file_name_is_text_in_every_report(run_cli, uploaded, tmp_path):
    sources, answers = uploaded
    result = run_cli("stats", "--sources", "sources", "--today", "2026-11-29", "--out", "report", str(answers), cwd=tmp_path)
    assert result.code == 0, result.err
    report = (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    lines = [line for line in report.splitlines() if "img src" in line]
    assert len(lines) == 2, report  # the files table and the unmatched rows
    for line in lines:
        assert "\x1b" not in line and "\x07" not in line
        assert "<img" not in line.replace("\\<", "") and "](javascript" not in line.replace("\\]", "")
        assert "\\<img src=x onerror=alert(1)\\>\\|\\[click\\](javascript:alert(1))\\|U+001B\\]0;pwnedU+0007U+001B\\[2J\\&amp;.csv" in line
    table_row = next(line for line in lines if line.startswith("| "))
    assert table_row.count(" | ") == 4  # five cells: the name's | broke no column
    data = json.loads((tmp_path / "report" / "report.json").read_text(encoding="utf-8"))
    assert data["files"][0]["name"] == HOSTILE_NAME  # JSON keeps the name as it is: a reader escapes at its edge
    assert "\x1b" not in result.err
