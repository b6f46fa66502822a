"""`audit` end to end: a small sources folder whose quotes cite pages on a local server, one per status."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading

import pytest

from pipeline.citations.lock import LOCK_NAME, CitationLock
from tests.conftest import FIXTURES, ROOT, TODAY
from tests.kit.pageserver import PageServer, Reply, closed_port

PAGE = "<html><body><p>Sequence packing is a training technique wherein multiple training sequences (examples) are concatenated into one long sequence (pack).</p></body></html>"
PAGE_TEXT = "Sequence packing is a training technique wherein multiple training sequences (examples) are concatenated into one long sequence (pack)."
QUOTES = {
    "found": "Sequence packing is a training technique wherein multiple training sequences (examples) are concatenated",
    "drifted": "Sequence packing is a testing technique wherein multiple training sequences (examples) are concatenated",
    "missing": "Pipeline parallelism splits the layers of a model across GPUs",
    "dead": "A page that was removed",
    "blocked": "A page behind a login",
    "unreachable": "A page on a host that does not answer",
    "unsupported": "A picture of words",
}
OBJECTIVE = """id: "1.1"
title: Audited
summary: One quote per status.
reviewed: 2026-11-01
key_points:
{points}
"""
POINT = """  - id: 1.1-{status}
    text: A point.
    citations:
      - url: {url}
        title: A page
        quote: "{quote}"
"""


@pytest.fixture
def server():
    with PageServer() as running:
        running.add("/page", Reply(body=PAGE, etag='"v1"'))
        running.add("/removed", Reply(404, "gone"))
        running.add("/login", Reply(403, "no"))
        running.add("/picture.png", Reply(body=b"\x89PNG", content_type="image/png"))
        yield running


@pytest.fixture
def sources(tmp_path, server):
    urls = {"found": "/page", "drifted": "/page", "missing": "/page", "dead": "/removed", "blocked": "/login", "unsupported": "/picture.png"}
    folder = tmp_path / "sources" / "demo"
    folder.mkdir(parents=True)
    shutil.copy(FIXTURES / "exams" / "valid.yaml", folder / "exam.yaml")
    points = "".join(POINT.format(status=s, url=server.url(urls[s]) if s in urls else f"http://127.0.0.1:{closed_port()}/gone-away", quote=q) for s, q in QUOTES.items())
    (folder / "audit.yaml").write_text(OBJECTIVE.format(points=points), encoding="utf-8")
    return tmp_path / "sources"


def quote_line(sources, status: str) -> int:
    lines = (sources / "demo" / "audit.yaml").read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, 1) if QUOTES[status] in line)


def audit(run_cli, sources, *extra):
    return run_cli("audit", "--sources", "sources", "--today", TODAY, "--retries", "0", "--interval", "0", "--timeout", "2",
                   "--cache", str(sources.parent / "cache"), "--no-archive", "--allow-host", "127.0.0.1", *extra, cwd=sources.parent)


def test_every_status_in_report_and_lock(run_cli, sources):
    result = audit(run_cli, sources, "--report", "report.json")
    assert result.code == 1
    report = json.loads((sources.parent / "report.json").read_text())
    assert [(c["quote"], c["status"]) for c in report["citations"]] == [(q, s) for s, q in QUOTES.items()]
    found, drifted = report["citations"][0], report["citations"][1]
    assert (found["file"], found["line"], found["match"], found["score"]) == ("sources/demo/audit.yaml", quote_line(sources, "found"), "exact", 1.0)
    assert (drifted["match"], drifted["closest"]) == ("fuzzy", QUOTES["found"])
    assert drifted["diff"] == "Sequence packing is a [-testing-] {+training+} technique wherein multiple training sequences (examples) are concatenated"
    assert report["summary"] == {s: 1 for s in QUOTES} | {"archived": 0, "moved": 0}
    assert report["reviews"] == [
        {"file": "sources/demo/audit.yaml", "line": 4, "reviewed": "2026-11-01", "status": "fresh", "age_days": 28},
        {"file": "sources/demo/exam.yaml", "line": 6, "reviewed": "2026-11-01", "status": "fresh", "age_days": 28},
    ]
    lock = CitationLock.load(sources / "demo")
    assert {e.quote: e.status for e in lock.entries.values()} == {
        **{q: s for s, q in QUOTES.items()}, QUOTES["blocked"]: "unchecked", QUOTES["unreachable"]: "unchecked",
    }
    assert lock.entry(lock_url(lock, "dead"), QUOTES["dead"]).http_status == 404


def lock_url(lock, status):
    return next(url for url, quote in lock.entries if quote == QUOTES[status])


def test_terminal_summary_names_each_problem_with_file_and_line(run_cli, sources, server):
    result = audit(run_cli, sources)
    where = {s: f"sources/demo/audit.yaml:{quote_line(sources, s)}:16" for s in QUOTES}
    assert f"{where['drifted']}: drifted: {server.url('/page')}" in result.lines
    assert "    diff: Sequence packing is a [-testing-] {+training+} technique wherein multiple training sequences (examples) are concatenated" in result.lines
    assert f"{where['dead']}: dead: {server.url('/removed')}" in result.lines
    assert "    the page is gone (HTTP 404)" in result.lines
    assert f"{where['blocked']}: blocked: {server.url('/login')}" in result.lines
    assert "    the connection was refused" in result.lines
    assert "    the page is image/png, not HTML, plain text or PDF" in result.lines
    assert not any(line.startswith(where["found"]) for line in result.lines)
    assert "audit: 7 quote(s) on 5 page(s): 1 found, 1 drifted, 1 missing, 1 dead, 1 blocked, 1 unreachable, 1 unsupported;" in result.err


def test_validate_reads_the_lock_offline(run_cli, sources):
    audit(run_cli, sources)
    result = run_cli("validate", "--sources", "sources", "--today", TODAY, "--verbose", cwd=sources.parent)
    f = "sources/demo/audit.yaml"
    assert result.code == 1
    assert result.lines == [
        f"{f}:{quote_line(sources, 'drifted')}:16: error: key_points[1].citations[0].quote: quote not on the page at the last audit (2026-11-29); "
        f"closest passage (97% alike): \"{QUOTES['found']}\"; quote the page's words or cite where they are [citation-drifted]",
        f"{f}:{quote_line(sources, 'missing')}:16: error: key_points[2].citations[0].quote: quote not on the page at the last audit (2026-11-29), "
        "nor anything close to it; check the address and the quote [citation-missing]",
        f"{f}:{quote_line(sources, 'dead')}:16: error: key_points[3].citations[0].quote: the cited page is gone (HTTP 404 at the last audit, 2026-11-29); "
        "cite where the text lives now [citation-dead]",
        f"{f}:{quote_line(sources, 'blocked')}:16: warning: key_points[4].citations[0].quote: quote not checked against its page yet; "
        "run `exam-prep audit` where the page can be reached [citation-unchecked]",
        f"{f}:{quote_line(sources, 'unreachable')}:16: warning: key_points[5].citations[0].quote: quote not checked against its page yet; "
        "run `exam-prep audit` where the page can be reached [citation-unchecked]",
        f"{f}:{quote_line(sources, 'unsupported')}:16: warning: key_points[6].citations[0].quote: the cited page cannot be checked "
        "(the page is image/png, not HTML, plain text or PDF); cite an HTML, text or PDF page [citation-unsupported]",
    ]


def test_a_found_quote_goes_stale_with_the_review_policy(run_cli, sources):
    audit(run_cli, sources)
    result = run_cli("validate", "--sources", "sources", "--today", "2027-06-01", cwd=sources.parent)
    line = quote_line(sources, "found")
    assert (f"sources/demo/audit.yaml:{line}:16: warning: key_points[0].citations[0].quote: quote last checked 2026-11-29, 184 days ago; "
            "the review policy allows 180 days: run `exam-prep audit` where the page can be reached [citation-stale]") in result.lines


def test_second_audit_of_unchanged_pages_is_answered_by_304(run_cli, sources, server):
    audit(run_cli, sources)
    before = (sources / "demo" / LOCK_NAME).read_text()
    again = audit(run_cli, sources)
    assert again.code == 1
    assert server.statuses("/page") == [200, 304]
    assert [r.headers.get("If-None-Match") for r in server.requests if r.path == "/page"] == [None, '"v1"']
    assert (sources / "demo" / LOCK_NAME).read_text() == before  # same results, same day: the same bytes
    assert "lock updated sources/demo/citations.lock.json" not in again.err
    assert again.err.rstrip().endswith("lock unchanged sources/demo/citations.lock.json")


def test_a_torn_cached_body_is_no_copy_and_the_page_is_fetched_in_full(run_cli, sources, server):
    # The cache is written without fsync: a crash may leave a body cut short. Its hash tells, so the next
    # audit asks without a validator (a 304 would have it judge the torn text) and keeps a whole copy again.
    audit(run_cli, sources)
    before = (sources / "demo" / LOCK_NAME).read_text()
    copies = sorted((sources.parent / "cache").glob("*.page"))
    assert copies
    for copy in copies:  # the metadata line whole, the body after it cut short
        meta, _, body = copy.read_bytes().partition(b"\n")
        copy.write_bytes(meta + b"\n" + body[:10])
    again = audit(run_cli, sources)
    assert server.statuses("/page") == [200, 200]
    assert [r.headers.get("If-None-Match") for r in server.requests if r.path == "/page"] == [None, None]
    assert (sources / "demo" / LOCK_NAME).read_text() == before and again.code == 1
    audit(run_cli, sources)
    assert server.statuses("/page") == [200, 200, 304]  # the copy kept the second time is whole


def test_word_diff_is_coloured_only_on_a_terminal_that_allows_colour(monkeypatch):
    from rich.console import Console

    from pipeline.citations.worddiff import word_diff
    from pipeline.findings.summary import diff_text

    segments = word_diff("a testing technique", "a training technique")
    plain = "a [-testing-] {+training+} technique"
    assert diff_text(Console(force_terminal=False), segments) == plain  # a pipe, a CI log
    assert diff_text(Console(force_terminal=True, no_color=True), segments) == plain
    assert "[red strike]testing[/]" in diff_text(Console(force_terminal=True, no_color=False), segments)
    monkeypatch.setenv("NO_COLOR", "1")  # https://no-color.org: rich reads it
    assert diff_text(Console(force_terminal=True), segments) == plain


def test_markdown_report(run_cli, sources):
    audit(run_cli, sources, "--report", "audit.md")
    text = (sources.parent / "audit.md").read_text()
    assert text.startswith("## Citation audit, 2026-11-29\n\n| status | quotes |\n| --- | --- |\n| found | 1 |\n")
    assert "  diff: `Sequence packing is a [-testing-] {+training+} technique" in text


def test_all_found_exits_0_and_lock_is_sorted(run_cli, tmp_path, server):
    folder = tmp_path / "sources" / "demo"
    folder.mkdir(parents=True)
    shutil.copy(FIXTURES / "exams" / "valid.yaml", folder / "exam.yaml")
    points = POINT.format(status="b", url=server.url("/page"), quote="one long sequence (pack).")
    points += POINT.format(status="a", url=server.url("/page"), quote="Sequence packing is a training technique")
    (folder / "ok.yaml").write_text(OBJECTIVE.format(points=points), encoding="utf-8")
    result = audit(run_cli, tmp_path / "sources")
    assert result.code == 0, result.out
    raw = json.loads((folder / LOCK_NAME).read_text())
    assert [c["quote"] for c in raw["citations"]] == ["Sequence packing is a training technique", "one long sequence (pack)."]
    assert raw["citations"][1] == {
        "checked": "2026-11-29", "final_url": server.url("/page"), "fingerprint": raw["citations"][0]["fingerprint"],
        "http_status": 200, "match": "exact", "quote": "one long sequence (pack).", "score": 1.0, "status": "found", "url": server.url("/page"),
        "context": PAGE_TEXT, "context_date": "2026-11-29", "context_fingerprint": raw["citations"][0]["context_fingerprint"],
    }


def test_audit_refuses_sources_with_errors(run_cli, make_sources):
    sources = make_sources("valid", "misspelt_key")
    result = run_cli("audit", "--sources", "sources", "--today", TODAY, cwd=sources.parent)
    assert result.code == 1
    assert any(line.startswith("sources/demo/misspelt_key.yaml:2:1: error: titel: unknown key") for line in result.lines)
    assert "audit: not run: fix the errors above first" in result.err


def test_unknown_exam_is_a_sentence(run_cli, make_sources):
    sources = make_sources("valid")
    result = run_cli("audit", "--sources", "sources", "--exam", "nope", cwd=sources.parent)
    assert (result.code, result.err.strip()) == (2, "error: no exam 'nope' in sources (exams: demo)")


def test_lock_survives_a_kill_in_the_middle(run_cli, sources, server):
    audit(run_cli, sources)
    before = (sources / "demo" / LOCK_NAME).read_text()
    release = threading.Event()
    server.add("/page", Reply(body=PAGE, hold=release))  # the next audit hangs on this page until the test lets go
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen([sys.executable, "-m", "pipeline", "audit", "--sources", "sources", "--today", "2026-12-01",
                                "--retries", "0", "--interval", "0", "--timeout", "60", "--cache", "cache", "--no-archive", "--allow-host", "127.0.0.1"],
                               cwd=sources.parent, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert server.wait_for_hits("/page", 2)  # the second audit is waiting for the page: killed in the middle
        process.send_signal(signal.SIGKILL)
        assert process.wait() == -signal.SIGKILL
    finally:
        release.set()
        if process.poll() is None:
            process.kill()
            process.wait()
    assert (sources / "demo" / LOCK_NAME).read_text() == before
    assert [p.name for p in (sources / "demo").iterdir() if p.name.startswith(".")] == []


def test_no_progress_bar_when_stderr_is_not_a_terminal(capsys):
    from pipeline.findings.summary import progress

    with progress(2) as tick:
        tick("a")
        tick("b")
    assert capsys.readouterr() == ("", "")
