"""The archive fallback against a local fake Wayback Machine: each outcome, and what the lock and the
report keep of it."""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import shutil
import sqlite3
import threading
import zipfile

import pytest
from pypdf import PdfReader

from pipeline.citations.archive import NoSnapshot, parse_cdx
from pipeline.citations.lock import CitationLock
from tests.conftest import FIXTURES, TODAY
from tests.kit.fakearchive import FakeArchive, allow_loopback
from tests.kit.pageserver import PageServer, Reply, closed_port

QUOTE = "Sequence packing concatenates multiple training sequences into one long sequence"
WITH_QUOTE = f"<html><body><p>Intro.</p><p>{QUOTE}.</p></body></html>"
WITHOUT_QUOTE = "<html><body><p>This page was rewritten and says something else entirely.</p></body></html>"
OBJECTIVE = """id: "1.1"
title: Archived
summary: Quotes on gone pages.
reviewed: 2026-11-01
key_points:
{points}"""
POINT = """  - id: 1.1-p{n}
    text: A point.
    citations:
      - url: {url}
        title: A page
        quote: "{quote}"
"""


@pytest.fixture
def pages():
    with PageServer() as server:
        yield server


@pytest.fixture
def archive():
    with FakeArchive() as server:
        yield server


def make_sources(tmp_path, urls: list[str], quote: str = QUOTE, extra: str = ""):
    folder = tmp_path / "sources" / "demo"
    folder.mkdir(parents=True)
    shutil.copy(FIXTURES / "exams" / "valid.yaml", folder / "exam.yaml")
    points = "".join(POINT.format(n=n, url=url, quote=quote) for n, url in enumerate(urls))
    (folder / "archived.yaml").write_text(OBJECTIVE.format(points=points) + extra, encoding="utf-8")
    return tmp_path / "sources"


def audit(run_cli, sources, *extra):
    return run_cli("audit", "--sources", "sources", "--today", TODAY, "--retries", "0", "--interval", "0", "--timeout", "2",
                   *allow_loopback(), "--cache", str(sources.parent / "cache"), "--report", "report.json", "--report", "report.md", *extra, cwd=sources.parent)


def report(sources) -> dict:
    return json.loads((sources.parent / "report.json").read_text())


def test_a_gone_page_whose_snapshot_holds_the_quote_is_archived(run_cli, tmp_path, pages, archive):
    gone = pages.add("/gone", Reply(404, "gone"))
    archive.snapshot(gone, "20250101000000", WITHOUT_QUOTE)  # older: the page had not said it yet
    viewer = archive.snapshot(gone, "20261030120000", WITH_QUOTE)  # the last before the review (2026-11-01)
    archive.snapshot(gone, "20261102000000", WITHOUT_QUOTE)  # after the review: closer in time, but not asked for
    archive.snapshot(gone, "20261031000000", WITH_QUOTE, status="404")  # a capture of an error page
    sources = make_sources(tmp_path, [gone])
    result = audit(run_cli, sources, "--archive-url", archive.base)
    assert result.code == 1  # archived still needs an author: cite a live page or the snapshot
    [citation] = report(sources)["citations"]
    assert (citation["status"], citation["archive_url"], citation["archive_timestamp"]) == ("archived", viewer, "20261030120000")
    assert citation["detail"] == "the page is gone (HTTP 404)"
    entry = CitationLock.load(sources / "demo").entry(gone, QUOTE)
    assert (entry.status, entry.archive_url, entry.archive_timestamp, entry.http_status) == ("archived", viewer, "20261030120000", 404)
    assert archive.cdx_queries() == [{"url": gone, "to": "20261101", "limit": "-1", "filter": "statuscode:200", "fl": "timestamp,original"}]
    assert archive.hits("/web/20261030120000id_/" + gone) == 1  # the original bytes, not the viewer page
    assert "    archived copy of 2026-10-30: " + viewer in result.lines
    assert f"archived copy of 2026-10-30: <{viewer}>" in (sources.parent / "report.md").read_text()
    validated = run_cli("validate", "--sources", "sources", "--today", TODAY, cwd=sources.parent)
    assert validated.lines == [f"sources/demo/archived.yaml:11:16: warning: key_points[0].citations[0].quote: the cited page is gone or changed, "
                               f"but an archived copy of 2026-10-30 holds the quote ({viewer}); cite where the text lives now [citation-archived]"]


def test_a_snapshot_without_the_quote_leaves_the_first_status(run_cli, tmp_path, pages, archive):
    gone = pages.add("/gone", Reply(404, "gone"))
    archive.snapshot(gone, "20261030120000", WITHOUT_QUOTE)
    sources = make_sources(tmp_path, [gone])
    audit(run_cli, sources, "--archive-url", archive.base)
    [citation] = report(sources)["citations"]
    assert (citation["status"], citation["archive_url"]) == ("dead", None)
    assert citation["archive_detail"] == "the archived copy of 20261030120000 does not hold the quote either"
    assert CitationLock.load(sources / "demo").entry(gone, QUOTE).status == "dead"


def test_no_snapshot(run_cli, tmp_path, pages, archive):
    gone = pages.add("/gone", Reply(410, "gone"))
    archive.snapshot(gone, "20261030120000", WITH_QUOTE, status="404")  # only a capture of an error page
    sources = make_sources(tmp_path, [gone])
    audit(run_cli, sources, "--archive-url", archive.base)
    [citation] = report(sources)["citations"]
    assert (citation["status"], citation["archive_detail"]) == ("dead", "the archive has no capture of the page")
    assert [("to" in q, "from" in q) for q in archive.cdx_queries()] == [(True, False), (False, True)]  # before, then after
    assert len(archive.requests) == 2  # and no snapshot fetched


def test_a_page_first_captured_after_its_review(run_cli, tmp_path, pages, archive):
    gone = pages.add("/gone", Reply(404, "gone"))
    archive.snapshot(gone, "20261225000000", WITHOUT_QUOTE)
    viewer = archive.snapshot(gone, "20261115000000", WITH_QUOTE)  # the first after the review
    sources = make_sources(tmp_path, [gone])
    audit(run_cli, sources, "--archive-url", archive.base)
    [citation] = report(sources)["citations"]
    assert (citation["status"], citation["archive_url"]) == ("archived", viewer)
    assert archive.cdx_queries()[1] == {"url": gone, "from": "20261101", "limit": "1", "filter": "statuscode:200", "fl": "timestamp,original"}


def test_cdx_answers():
    base = "https://web.archive.org"
    today = dt.date(2026, 11, 29)
    snapshot = parse_cdx("20240101000000 https://x.org/a\n20240301000000 http://www.x.org:80/a\n", base, "https://x.org/a", today)
    assert (snapshot.timestamp, snapshot.url, snapshot.raw) == (
        "20240301000000", "https://web.archive.org/web/20240301000000/http://www.x.org:80/a", "https://web.archive.org/web/20240301000000id_/http://www.x.org:80/a")
    assert parse_cdx("", base, "https://x.org/a", today) is None
    with pytest.raises(NoSnapshot, match="not a CDX listing"):
        parse_cdx("<html><body>Service unavailable</body></html>", base, "https://x.org/a", today)


def test_archive_down(run_cli, tmp_path, pages):
    gone = pages.add("/gone", Reply(404, "gone"))
    sources = make_sources(tmp_path, [gone])
    audit(run_cli, sources, "--archive-url", f"http://127.0.0.1:{closed_port()}")
    [citation] = report(sources)["citations"]
    assert citation["status"] == "dead"
    assert citation["archive_detail"] == "the archive did not answer: the connection was refused"


def test_archive_slow(run_cli, tmp_path, pages):
    release = threading.Event()  # the archive answers only once the audit has given up on it
    with FakeArchive(hold=release) as slow, contextlib.ExitStack() as stack:
        stack.callback(release.set)
        gone = pages.add("/gone", Reply(404, "gone"))
        slow.snapshot(gone, "20261030120000", WITH_QUOTE)
        sources = make_sources(tmp_path, [gone])
        run_cli("audit", "--sources", "sources", "--today", TODAY, "--retries", "0", "--interval", "0", "--timeout", "0.5",
                *allow_loopback(), "--cache", "cache", "--report", "report.json", "--archive-url", slow.base, cwd=sources.parent)
        [citation] = report(sources)["citations"]
        assert citation["status"] == "dead"
        assert citation["archive_detail"] == "the archive did not answer: the server did not answer within 0.5 s"
        assert len(slow.cdx_queries()) == 1  # asked once (no retries), and no snapshot fetched
        assert len(slow.requests) == 1


def test_missing_and_unreachable_quotes_are_looked_up_too(run_cli, tmp_path, pages, archive):
    rewritten = pages.add("/rewritten", Reply(body=WITHOUT_QUOTE))
    down = f"http://127.0.0.1:{closed_port()}/down"
    for url in (rewritten, down):
        archive.snapshot(url, "20261101093000", WITH_QUOTE)  # on the review day itself: still "on or before"
    sources = make_sources(tmp_path, [rewritten, down])
    audit(run_cli, sources, "--archive-url", archive.base)
    assert [(c["url"], c["status"]) for c in report(sources)["citations"]] == [(rewritten, "archived"), (down, "archived")]


def test_found_quotes_never_ask_the_archive_and_no_archive_asks_nothing(run_cli, tmp_path, pages, archive):
    live = pages.add("/live", Reply(body=WITH_QUOTE))
    gone = pages.add("/gone", Reply(404, "gone"))
    archive.snapshot(gone, "20261030120000", WITH_QUOTE)
    sources = make_sources(tmp_path, [live, gone])
    audit(run_cli, sources, "--no-archive")
    assert archive.requests == []
    assert [c["status"] for c in report(sources)["citations"]] == ["found", "dead"]
    audit(run_cli, sources, "--archive-url", archive.base)
    assert [q["url"] for q in archive.cdx_queries()] == [gone]


def test_archive_url_must_be_http(run_cli, tmp_path, pages, capsys):
    sources = make_sources(tmp_path, [pages.add("/live", Reply(body=WITH_QUOTE))])
    with pytest.raises(SystemExit) as exit_:
        audit(run_cli, sources, "--archive-url", "file:///etc")
    assert exit_.value.code == 2
    assert "--archive-url: 'file:///etc': expected an http(s) address" in capsys.readouterr().err


@pytest.mark.parametrize("per_host", [1, 2])
def test_the_archive_gets_the_same_politeness_as_any_host(run_cli, tmp_path, pages, per_host):
    with FakeArchive(api_delay=0.2) as slowish:
        gone = [pages.add(f"/gone{n}", Reply(404, "gone")) for n in range(4)]
        sources = make_sources(tmp_path, gone)
        run_cli("audit", "--sources", "sources", "--today", TODAY, "--retries", "0", "--interval", "0", "--timeout", "5",
                "--per-host", str(per_host), *allow_loopback(), "--cache", "cache", "--archive-url", slowish.base, cwd=sources.parent)
        assert len(slowish.cdx_queries()) == 8  # no capture: before the review, then after, per page
        assert 1 <= slowish.most_in_flight <= per_host  # never more at once than --per-host allows (4 threads ask)


QUESTION = """questions:
  - id: 1.1-q1
    type: true_false
    stem: Sequence packing concatenates sequences.
    answer: true
    explanation: The archived page says so.
    key_points: [1.1-p0]
"""


def test_guide_and_deck_show_the_archived_copy_and_link_to_it(run_cli, tmp_path, pages, archive):
    gone = pages.add("/gone", Reply(404, "gone"))
    viewer = archive.snapshot(gone, "20261030120000", WITH_QUOTE)
    sources = make_sources(tmp_path, [gone], extra=QUESTION)
    audit(run_cli, sources, "--archive-url", archive.base)
    built = run_cli("build", "--sources", "sources", "--out", "build", "--today", TODAY, cwd=sources.parent)
    assert built.code == 0, built.out + built.err
    out = sources.parent / "build" / "demo"
    reader = PdfReader(out / "study-guide.pdf")
    text = " ".join(" ".join(page.extract_text().split()) for page in reader.pages)  # lines joined: a phrase may wrap
    assert text.count("archived copy of 2026-10-30") == 1  # the key point's call-out (the compact answer key prints no quotes)
    linked = {n for n, page in enumerate(reader.pages) for a in page.get("/Annots", []) if a.get_object().get("/A", {}).get("/URI") == viewer}
    assert len(linked) == 1  # the call-out's page (a wrapped link is two rectangles on one page)
    with zipfile.ZipFile(out / "deck.apkg") as package:
        (tmp_path / "collection.anki2").write_bytes(package.read("collection.anki2"))
    with sqlite3.connect(tmp_path / "collection.anki2") as db:
        [fields] = [f for (f,) in db.execute("select flds from notes") if "1.1-q1" in f]
    assert f'<a class="check check-archived" href="{viewer}">archived copy of 2026-10-30</a>' in fields
