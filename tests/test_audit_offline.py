"""Offline is a state, not a failure (issue 35, item 7), and the blast radius fits 80 columns.

Each audit is a real process. "No network" is made two real ways: a host name under `.invalid`, which
RFC 2606 guarantees never resolves, and a loopback port nothing listens on (allowed with --allow-host, so
the refusal is the connection's, not the audit's policy). A real page server on loopback stands for a
network that works, where one page is gone."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, ROOT, TODAY, write_found_lock
from tests.kit.pageserver import PageServer, Reply

OBJECTIVE = """\
id: "1.1"
title: Things and the stuff they are made of
summary: Things and stuff.
reviewed: 2026-11-01
key_points:
  - id: 1.1-things-are-made-of-stuff
    text: Things are made of stuff.
    citations:
      - {{url: "{one}", title: Things, quote: "Things are made of stuff."}}
  - id: 1.1-stuff-is-made-of-atoms
    text: Stuff is made of atoms.
    citations:
      - {{url: "{two}", title: Atoms, quote: "Stuff is made of atoms."}}
questions:
"""
QUESTION = """\
  - id: 1.1-question-number-{n}-about-what-stuff-is-made-of
    type: true_false
    stem: Stuff is made of atoms ({n}).
    answer: true
    explanation: The page says so.
    key_points: [1.1-stuff-is-made-of-atoms]
"""


def exam(tmp_path: Path, one: str, two: str, questions: int = 1) -> Path:
    folder = tmp_path / "sources" / "demo"
    folder.mkdir(parents=True)
    (folder / "exam.yaml").write_text((FIXTURES / "exams" / "valid.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    body = OBJECTIVE.format(one=one, two=two) + "".join(QUESTION.format(n=n) for n in range(1, questions + 1))
    (folder / "1.1.yaml").write_text(body, encoding="utf-8")
    write_found_lock(folder)  # an earlier audit found both quotes: verdicts an offline audit must not touch
    return folder


def audit(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1", "COLUMNS": "80"}
    return subprocess.run([sys.executable, "-m", "pipeline", "audit", "--today", TODAY, "--no-archive", "--retries", "0",
                           "--interval", "0", "--timeout", "5", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # closed again when the block ends: nothing listens there


@pytest.mark.parametrize("how", ["the host names do not resolve", "the connection is refused"])
def test_no_network_is_one_line_exit_2_and_the_lock_as_it_was(tmp_path, how):
    if how == "the host names do not resolve":
        folder, extra = exam(tmp_path, "https://pages.example.invalid/one", "https://atoms.example.invalid/two"), ()
        why = "the host name does not resolve (DNS)"
    else:
        port = closed_port()
        folder = exam(tmp_path, f"http://127.0.0.1:{port}/one", f"http://127.0.0.1:{port}/two")
        extra, why = ("--allow-host", f"127.0.0.1:{port}"), "the connection was refused"
    lock = folder / "citations.lock.json"
    before = lock.read_bytes()
    done = audit(tmp_path, "--report", "report.json", *extra)
    assert done.returncode == 2, done.stdout + done.stderr
    hosts = 2 if "resolve" in how else 1
    assert (done.stdout + done.stderr).splitlines() == [
        f"audit: no network: none of the 2 page(s) on {hosts} host(s) could be reached ({why}); nothing was checked and the lock "
        "was left as it was: run the audit again where the pages can be reached"]
    assert lock.read_bytes() == before  # the verdicts of the earlier audit stand
    assert not (tmp_path / "report.json").exists()  # no report of nothing learnt


def test_a_network_that_answers_with_a_gone_page_is_an_audit_with_a_blast_radius_in_80_columns(tmp_path):
    with PageServer() as server:
        live = server.add("/live", Reply(body="<html><body><p>Things are made of stuff.</p></body></html>"))
        gone = server.add("/a/rather/long/path/to/a/page/that/is/gone", Reply(404, "gone"))
        folder = exam(tmp_path, live, gone, questions=6)
        done = audit(tmp_path, "--allow-host", f"127.0.0.1:{server.httpd.server_address[1]}")
    assert done.returncode == 1, done.stdout + done.stderr  # a dead page: an author must act
    out = done.stdout.splitlines()
    blast = out[out.index("blast radius: what depends on each citation not found"):]
    assert len(blast) > 5 and all(len(line) <= 80 for line in blast), "\n".join(line for line in blast if len(line) > 80)
    text = " ".join(line.strip() for line in blast)
    assert "sources/demo/1.1.yaml:13: dead: objective 1.1 Things and the stuff they are made of" in text
    assert "key points: 1.1-stuff-is-made-of-atoms" in text
    for n in range(1, 7):  # every question named whole, none cut or elided
        assert f"1.1-question-number-{n}-about-what-stuff-is-made-of" in text
    assert "…" not in text and "site: site/objective-1-1.html" in text
    assert len((folder / "citations.lock.json").read_bytes()) > 0
