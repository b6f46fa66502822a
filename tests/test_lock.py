"""The lock: atomic writes, what an audit keeps and replaces, and what `validate` says about it."""

from __future__ import annotations

import datetime as dt
import json
import os

import pytest

from pipeline.citations.lock import LOCK_NAME, CitationLock, LockEntry
from pipeline.citations.lockupdate import updated
from pipeline.citations.status import Status
from pipeline.citations.verdict import CitationResult
from tests.conftest import TODAY

URL, QUOTE = "https://example.com/things", "Things are made of stuff."
DAY = dt.date(2026, 11, 1)


def test_an_interrupted_save_leaves_the_old_lock(tmp_path, monkeypatch):
    old = CitationLock(tmp_path / LOCK_NAME, {(URL, QUOTE): LockEntry(URL, QUOTE, "found", DAY)})
    old.save()
    before = old.path.read_text()
    new = CitationLock(old.path, {(URL, QUOTE): LockEntry(URL, QUOTE, "missing", DAY)})

    def killed(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", killed)
    with pytest.raises(KeyboardInterrupt):
        new.save()
    assert old.path.read_text() == before
    assert [p.name for p in tmp_path.iterdir()] == [LOCK_NAME]


def test_save_then_load_round_trips(tmp_path):
    entry = LockEntry(URL, QUOTE, "drifted", DAY, "fuzzy", 0.9, URL, 200, "sha256:00", "Things are made of wood", None)
    lock = CitationLock(tmp_path / LOCK_NAME, {(URL, QUOTE): entry})
    lock.save()
    assert CitationLock.load(tmp_path).entries == {(URL, QUOTE): entry}
    assert lock.path.read_text().endswith("}\n")


def test_network_faults_keep_the_previous_verdict_and_date():
    lock = CitationLock(None, {(URL, QUOTE): LockEntry(URL, QUOTE, "found", DAY), (URL, "gone from the sources"): LockEntry(URL, "x", "found", DAY)})
    today = dt.date(2026, 11, 29)
    fault = {(URL, QUOTE): CitationResult(URL, QUOTE, Status.UNREACHABLE, detail="the connection was refused")}
    assert updated(lock, [(URL, QUOTE)], fault, today).entries == {(URL, QUOTE): LockEntry(URL, QUOTE, "found", DAY)}
    never = updated(CitationLock(None, {}), [(URL, QUOTE)], fault, today)
    assert never.entries[(URL, QUOTE)].status == "unchecked"
    verdict = {(URL, QUOTE): CitationResult(URL, QUOTE, Status.MISSING, score=0.2, closest="nothing like it")}
    entry = updated(lock, [(URL, QUOTE)], verdict, today).entries[(URL, QUOTE)]
    assert (entry.status, entry.checked, entry.closest) == ("missing", today, "nothing like it")


def test_never_audited_quotes_warn_and_fail_under_strict(run_cli, make_sources):
    sources = make_sources("valid", audited=False)
    expected = ("sources/demo/valid.yaml:11:16: {}: key_points[0].citations[0].quote: quote not checked against its page yet; "
                "run `exam-prep audit` where the page can be reached [citation-unchecked]")
    relaxed = run_cli("validate", "--sources", "sources", "--today", TODAY, cwd=sources.parent)
    assert (relaxed.code, relaxed.lines) == (0, [expected.format("warning")])
    strict = run_cli("validate", "--sources", "sources", "--today", TODAY, "--strict", cwd=sources.parent)
    assert (strict.code, strict.lines) == (1, [expected.format("error")])


def test_an_unreadable_lock_is_an_environment_error_at_its_line(run_cli, make_sources):
    sources = make_sources("valid")
    (sources / "demo" / LOCK_NAME).write_text('{"citations": [\n  {not json', encoding="utf-8")
    result = run_cli("validate", "--sources", "sources", "--today", TODAY, cwd=sources.parent)
    assert result.code == 2  # a broken machine-written file, not content
    assert result.err.strip() == ("sources/demo/citations.lock.json:2:4: error: the citation lock cannot be read "
                                  "(Expecting property name enclosed in double quotes); restore it from git or run `exam-prep audit`")


def test_build_reads_the_committed_lock_without_network(run_cli, make_sources, tmp_path, monkeypatch):
    """The statuses in the outputs come from the lock, and no socket is opened to get them."""
    import socket

    sources = make_sources("valid", "terms_four")  # its lock says every quote was found on TODAY; the fill-ins of 1.2 cite them
    lock_before = (sources / "demo" / LOCK_NAME).read_bytes()
    attempts = []

    def no_network(*args, **kwargs):
        attempts.append(args)
        raise AssertionError("build touched the network")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setattr(socket, "getaddrinfo", no_network)
    result = run_cli("build", "--sources", str(sources), "--today", TODAY, "--out", str(tmp_path / "out"))
    assert (result.code, attempts) == (0, []), result.err
    bank = json.loads((tmp_path / "out" / "demo" / "bank.json").read_text())
    statuses = {(c["status"], c["checked"]) for q in bank["questions"] for c in q["citations"]}
    assert statuses == {("found", TODAY)}  # from the lock: a lock left unread would say unchecked, with no date
    assert (sources / "demo" / LOCK_NAME).read_bytes() == lock_before
