"""Moves: permanent redirects make a found quote `moved`; `audit --fix-moves` rewrites the address in the
source and nothing else (a diff of the file shows the URL line alone)."""

from __future__ import annotations

import difflib
import json
import shutil
from pathlib import Path

import pytest

from pipeline.citations.audit import CitationRef, Place
from pipeline.citations.fixmoves import Move, rewrite
from pipeline.citations.lock import CitationLock
from pipeline.load.yamlsource import Position
from tests.conftest import FIXTURES, TODAY
from tests.kit.fakearchive import allow_loopback
from tests.kit.pageserver import PageServer, Reply

QUOTE = "Tensor Cores are most efficient when key parameters of the operation are multiples of 8"
PAGE = f"<html><body><p>{QUOTE}.</p></body></html>"
OBJECTIVE = """# yaml-language-server: $schema=../../schema/objective.schema.json
id: "1.1"                          # quoted: "1" is the section
title: Moved pages
summary: Quotes whose pages moved.
reviewed: 2026-11-01
key_points:
  # the first point cites a page that moved for good
  - id: 1.1-moved
    text: "Sizes matter {{{{c1::a lot}}}}."
    citations:
      - url: {moved}   # the old address
        title: Old home   # kept as it is
        quote: "{quote}"
  - id: 1.1-temporary
    text: A point.
    citations:
      - url: {temporary}
        title: Somewhere for now
        quote: '{quote}'
terms:
  - {{term: Tensor Core, definition: A GPU unit.}}   # flow style kept
"""


@pytest.fixture
def server():
    with PageServer() as running:
        new = running.add("/new/home", Reply(body=PAGE))
        hop = running.add("/hop", Reply(308, headers={"Location": new}))
        running.add("/old", Reply(301, headers={"Location": hop}))
        running.add("/temporary", Reply(302, headers={"Location": new}))
        yield running


@pytest.fixture
def sources(tmp_path, server):
    folder = tmp_path / "sources" / "demo"
    folder.mkdir(parents=True)
    shutil.copy(FIXTURES / "exams" / "valid.yaml", folder / "exam.yaml")
    text = OBJECTIVE.format(moved=server.url("/old"), temporary=server.url("/temporary"), quote=QUOTE)
    (folder / "moved.yaml").write_text(text, encoding="utf-8")
    return tmp_path / "sources"


def audit(run_cli, sources, *extra):
    return run_cli("audit", "--sources", "sources", "--today", TODAY, "--retries", "0", "--interval", "0", "--timeout", "2",
                   *allow_loopback(), "--cache", "cache", "--no-archive", "--report", "report.json", *extra, cwd=sources.parent)


def test_permanent_redirects_are_moved_temporary_ones_are_not(run_cli, sources, server):
    result = audit(run_cli, sources)
    assert result.code == 1
    citations = json.loads((sources.parent / "report.json").read_text())["citations"]
    assert [(c["url"], c["status"], c["moved_to"]) for c in citations] == [
        (server.url("/old"), "moved", server.url("/new/home")), (server.url("/temporary"), "found", None),
    ]
    assert CitationLock.load(sources / "demo").entry(server.url("/old"), QUOTE).moved_to == server.url("/new/home")
    assert f"    moved to {server.url('/new/home')} (audit --fix-moves rewrites the address)" in result.lines
    validated = run_cli("validate", "--sources", "sources", "--today", TODAY, cwd=sources.parent)
    assert validated.lines == [f"sources/demo/moved.yaml:13:16: warning: key_points[0].citations[0].quote: the cited page moved to {server.url('/new/home')} "
                               "(a permanent redirect, audit of 2026-11-29); run `exam-prep audit --fix-moves` or change the address [citation-moved]"]


def test_a_moved_page_that_lost_the_quote_is_not_moved(run_cli, sources, server):
    server.add("/new/home", Reply(body="<p>Something else.</p>"))
    audit(run_cli, sources)
    citations = json.loads((sources.parent / "report.json").read_text())["citations"]
    assert [(c["status"], c["moved_to"]) for c in citations] == [("missing", None), ("missing", None)]


def test_fix_moves_changes_exactly_the_url_line(run_cli, sources, server):
    path = sources / "demo" / "moved.yaml"
    before = path.read_text(encoding="utf-8")
    result = audit(run_cli, sources, "--fix-moves")
    after = path.read_text(encoding="utf-8")
    changed = [line for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0)
               if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    assert changed == [f"-      - url: {server.url('/old')}   # the old address", f"+      - url: {server.url('/new/home')}   # the old address"]
    assert result.code == 0, result.out  # the move is fixed; nothing else needs an author
    lock = CitationLock.load(sources / "demo")
    assert lock.entry(server.url("/new/home"), QUOTE).status == "found"
    assert (server.url("/old"), QUOTE) not in lock.entries
    assert f"sources/demo/moved.yaml:11: fixed: {server.url('/old')} -> {server.url('/new/home')}" in result.err
    assert run_cli("validate", "--sources", "sources", "--today", TODAY, cwd=sources.parent).code == 0


ODD = """key_points:
  - id: a
    citations:
      - url: http://old.example/a   # moved?
        quote: q
terms:
  - {term: X,   definition: odd spacing}
  - term: Y
    definition: >
      folded text
      here
"""


def test_fix_moves_falls_back_to_the_url_line_when_a_round_trip_would_reformat():
    ref = CitationRef(None, Place(Path("odd.yaml"), Position(5, 16)), "http://old.example/a", "q", "1.1", "a", (0, 0))
    after, lines = rewrite(ODD, [Move(ref, "https://new.example/b")], Path("odd.yaml"))
    assert after == ODD.replace("http://old.example/a", "https://new.example/b")
    assert lines == [4]
