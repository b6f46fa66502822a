"""`audit --new-only`: exit 1 only for problems the committed lock did not already record; the report
still lists every problem, and marks which are new."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.conftest import FIXTURES
from tests.kit.fakearchive import allow_loopback
from tests.kit.pageserver import PageServer, Reply

PAGE = "<html><body><p>Things are made of stuff.</p></body></html>"
OBJECTIVE = """id: "1.1"
title: Things
summary: Stuff.
reviewed: 2026-11-01
key_points:
  - id: 1.1-a
    text: A point.
    citations:
      - url: {a}
        title: A
        quote: Things are made of stuff.
  - id: 1.1-b
    text: B point.
    citations:
      - url: {b}
        title: B
        quote: Things are made of stuff.
"""


@pytest.fixture
def setup(tmp_path):
    with PageServer() as server:
        urls = {"a": server.add("/a", Reply(404, "gone")), "b": server.add("/b", Reply(body=PAGE))}
        folder = tmp_path / "sources" / "demo"
        folder.mkdir(parents=True)
        shutil.copy(FIXTURES / "exams" / "valid.yaml", folder / "exam.yaml")
        (folder / "things.yaml").write_text(OBJECTIVE.format(**urls), encoding="utf-8")
        yield tmp_path / "sources", server


def audit(run_cli, sources, today, *extra):
    result = run_cli("audit", "--sources", "sources", "--today", today, "--retries", "0", "--interval", "0", "--timeout", "2",
                     *allow_loopback(), "--cache", "cache", "--no-archive", "--report", "report.json", "--report", "report.md", *extra, cwd=sources.parent)
    return result, json.loads((sources.parent / "report.json").read_text())


def test_only_new_problems_fail(run_cli, setup):
    sources, server = setup
    first, _ = audit(run_cli, sources, "2026-11-29")
    assert first.code == 1  # the dead page, recorded in the lock from now on
    again, report = audit(run_cli, sources, "2026-11-30", "--new-only")
    assert again.code == 0, again.err
    assert [(c["status"], c["new"]) for c in report["citations"]] == [("dead", False), ("found", False)]
    assert "audit: 0 new problem(s) since the committed lock" in again.err
    assert "**dead** <" in (sources.parent / "report.md").read_text()  # still listed in full

    server.add("/b", Reply(404, "gone now"))
    third, report = audit(run_cli, sources, "2026-12-01", "--new-only")
    assert third.code == 1
    assert [(c["url"].rsplit("/", 1)[1], c["status"], c["new"]) for c in report["citations"]] == [("a", "dead", False), ("b", "dead", True)]
    markdown = (sources.parent / "report.md").read_text()
    assert f"**dead** <{server.url('/b')}> (new)" in markdown and f"**dead** <{server.url('/a')}> (new)" not in markdown


def test_a_review_that_went_stale_since_the_lock_is_new(run_cli, setup):
    sources, server = setup
    server.add("/a", Reply(body=PAGE))
    assert audit(run_cli, sources, "2026-11-29")[0].code == 0
    assert audit(run_cli, sources, "2026-12-01", "--new-only")[0].code == 0
    stale, _ = audit(run_cli, sources, "2027-06-01", "--new-only")  # 212 days after the review; policy 180
    assert stale.code == 1
    assert "audit: 2 new problem(s) since the committed lock" in stale.err  # exam.yaml's and the objective's
    assert audit(run_cli, sources, "2027-06-02", "--new-only")[0].code == 0  # already stale at the last audit
