"""Changed since review: the quote still stands, but the passage around it was edited after the objective
was reviewed; the audit says so (found, with a warning and a word diff) until the author reviews again."""

from __future__ import annotations

import datetime as dt
import json
import shutil

import pytest

from pipeline.citations.lock import CitationLock
from pipeline.citations.passage import Kept, compare, fingerprint
from tests.conftest import FIXTURES
from tests.kit.fakearchive import allow_loopback
from tests.kit.pageserver import PageServer, Reply

QUOTE = "BF16 keeps the exponent range of FP32"
FILLER = " ".join(f"word{n}" for n in range(60))  # far more than the passage kept either side of the quote
BEFORE = "Mixed precision training is widely used. {quote}, so loss scaling is rarely needed."
EDITED = "Mixed precision training is no longer recommended. {quote}, so loss scaling is still needed."
OBJECTIVE = """id: "1.1"
title: Precision
summary: BF16.
reviewed: {reviewed}
key_points:
  - id: 1.1-bf16
    text: A point.
    citations:
      - url: {url}
        title: A page
        quote: "{quote}"
"""


def page(sentence: str) -> str:
    return f"<html><body><p>{FILLER}</p><p>{sentence.format(quote=QUOTE)}</p><p>{FILLER}</p></body></html>"


@pytest.fixture
def server():
    with PageServer() as running:
        running.add("/page", Reply(body=page(BEFORE)))
        yield running


def write_objective(sources, server, reviewed: str) -> None:
    folder = sources / "demo"
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(FIXTURES / "exams" / "valid.yaml", folder / "exam.yaml")
    (folder / "precision.yaml").write_text(OBJECTIVE.format(reviewed=reviewed, url=server.url("/page"), quote=QUOTE), encoding="utf-8")


def audit(run_cli, sources, today: str):
    result = run_cli("audit", "--sources", "sources", "--today", today, "--retries", "0", "--interval", "0", "--timeout", "2",
                     *allow_loopback(), "--cache", "cache", "--no-archive", "--report", "report.json", cwd=sources.parent)
    [citation] = json.loads((sources.parent / "report.json").read_text())["citations"]
    return result, citation


def test_a_page_edited_around_an_unchanged_quote(run_cli, tmp_path, server):
    sources = tmp_path / "sources"
    write_objective(sources, server, "2026-11-01")
    first, citation = audit(run_cli, sources, "2026-11-29")
    assert (first.code, citation["status"], citation["warnings"]) == (0, "found", [])
    server.add("/page", Reply(body=page(EDITED)))
    second, citation = audit(run_cli, sources, "2026-12-05")
    assert (second.code, citation["status"], citation["warnings"]) == (1, "found", ["changed-since-review"])
    assert "[-widely used.-] {+no longer recommended.+}" in citation["passage_diff"]
    assert "[-rarely-] {+still+}" in citation["passage_diff"]
    assert any(line.endswith(f": found, changed-since-review: {server.url('/page')}") for line in second.lines)
    entry = CitationLock.load(sources / "demo").entry(server.url("/page"), QUOTE)
    assert (entry.warnings, entry.context_date) == (("changed-since-review",), dt.date(2026, 11, 29))  # the passage as read
    assert "widely used" in entry.context
    validated = run_cli("validate", "--sources", "sources", "--today", "2026-12-05", cwd=sources.parent)
    assert validated.lines == ["sources/demo/precision.yaml:11:16: warning: key_points[0].citations[0].quote: the page's text around the quote changed "
                               "since the objective was reviewed (audit of 2026-12-05); re-read it, then renew `reviewed` [citation-changed]"]
    # still there at the next audit: the author has not reviewed the objective again
    assert audit(run_cli, sources, "2026-12-06")[1]["warnings"] == ["changed-since-review"]
    # the author re-reads the page and moves the review date: the new passage becomes the one kept
    write_objective(sources, server, "2026-12-06")
    third, citation = audit(run_cli, sources, "2026-12-07")
    assert (third.code, citation["warnings"]) == (0, [])
    entry = CitationLock.load(sources / "demo").entry(server.url("/page"), QUOTE)
    assert ("no longer recommended" in entry.context, entry.context_date, entry.warnings) == (True, dt.date(2026, 12, 7), ())


def test_an_edit_far_from_the_quote_is_no_change(run_cli, tmp_path, server):
    sources = tmp_path / "sources"
    write_objective(sources, server, "2026-11-01")
    audit(run_cli, sources, "2026-11-29")
    far = page(BEFORE).replace("word0 ", "a whole new opening paragraph ", 1)
    server.add("/page", Reply(body=far))
    result, citation = audit(run_cli, sources, "2026-12-05")
    assert (result.code, citation["warnings"]) == (0, [])


def test_typography_is_no_change():
    context = "It is widely used — BF16 keeps the exponent range of FP32."
    assert fingerprint(context) == fingerprint("It is  widely used - bf16 keeps the exponent range of FP32.")
    kept = Kept(context, fingerprint(context), dt.date(2026, 11, 29))
    assert compare(kept, "It is widely used -- BF16 keeps the exponent range of FP32.", dt.date(2026, 11, 1), dt.date(2026, 12, 1)).diff is None


def test_a_change_kept_before_the_review_is_taken_as_read():
    kept = Kept("old words", fingerprint("old words"), dt.date(2026, 10, 1))
    change = compare(kept, "new words", dt.date(2026, 11, 1), dt.date(2026, 12, 1))
    assert (change.diff, change.kept.context, change.kept.date) == (None, "new words", dt.date(2026, 12, 1))
    assert compare(kept, "new words", dt.date(2026, 10, 1), dt.date(2026, 12, 1)).diff == "[-old-] {+new+} words"
