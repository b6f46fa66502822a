"""`audit` against a hostile local server, end to end: the real CLI in a subprocess limited to 1 GiB of
address space and a timeout. Every citation gets a status, the report is written, nothing is read from a
refused address, and what the lock knew about pages that could not be read is kept."""

from __future__ import annotations

import datetime as dt
import json
import os
import resource
import shutil
import subprocess
import sys

import pytest

from pipeline.citations.lock import LOCK_NAME, CitationLock, LockEntry
from tests.conftest import FIXTURES, ROOT, TODAY
from tests.kit.pageserver import PageServer, Reply

GIB = 1 << 30
QUOTE = "Sequence packing concatenates several training sequences into one."
PAGE = f"<html><body><p>{QUOTE}</p></body></html>"
DEPTH = 200_000
PAGES = {  # path -> (reply, the status the audit must give)
    "/good": (Reply(body=PAGE), "found"),
    "/deep": (Reply(body="<div>" * DEPTH + f"<p>{QUOTE}</p>" + "</div>" * DEPTH), "found"),
    "/charset": (Reply(body=PAGE, content_type="text/html; charset=no-such-charset"), "found"),
    "/binary": (Reply(body=os.urandom(19_000_000)), "unsupported"),
    "/zeros": (Reply(body=b"", endless=b"\0" * 65536, content_length=False), "unsupported"),
    "/video": (Reply(body=b"", endless=b"\1" * 65536, content_type="video/mp4", content_length=False), "unsupported"),
    "/drip": (Reply(body=PAGE.encode() * 3, drip=0.05), "unreachable"),
    "/to-other-port": (None, "blocked"),
    "/to-metadata": (Reply(302, headers={"Location": "http://169.254.169.254/latest/meta-data/"}), "blocked"),
    "/refresh-to-loopback": (None, "blocked"),
}
OBJECTIVE = 'id: "1.1"\ntitle: Hostile pages\nsummary: One quote per hostile page.\nreviewed: 2026-11-01\nkey_points:\n'
POINT = "  - id: p{i}\n    text: A point.\n    citations:\n      - url: {url}\n        title: A page\n        quote: {quote}\n"


def limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (GIB, GIB))


@pytest.fixture(scope="module")
def servers():
    with PageServer() as pages, PageServer() as other_port:
        other_port.add("/secret", Reply(body=f"<p>{QUOTE}</p>"))
        for path, (reply, _) in PAGES.items():
            if reply is not None:
                pages.add(path, reply)
        pages.add("/to-other-port", Reply(302, headers={"Location": other_port.url("/secret")}))
        pages.add("/refresh-to-loopback", Reply(body=f'<meta http-equiv="refresh" content="0; url=http://127.0.0.2:{other_port.httpd.server_address[1]}/secret">'))
        yield pages, other_port


@pytest.mark.slow  # a real audit process under resource limits against every hostile page
def test_every_hostile_page_gets_a_status_within_the_limits(tmp_path, servers):
    pages, other_port = servers
    folder = tmp_path / "sources" / "demo"
    folder.mkdir(parents=True)
    shutil.copy(FIXTURES / "exams" / "valid.yaml", folder / "exam.yaml")
    urls = [pages.url(path) for path in PAGES]
    (folder / "hostile.yaml").write_text(OBJECTIVE + "".join(POINT.format(i=i, url=url, quote=QUOTE) for i, url in enumerate(urls)), encoding="utf-8")
    earlier = dt.date(2026, 11, 20)  # what an earlier audit said: all found
    CitationLock(folder / LOCK_NAME, {(u, QUOTE): LockEntry(u, QUOTE, "found", earlier, "exact", 1.0) for u in urls}).save()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    # the allow list on the command line: this server's port only, not the other one's
    result = subprocess.run([sys.executable, "-m", "pipeline", "audit", "--sources", "sources", "--today", TODAY, "--retries", "0",
                             "--interval", "0", "--timeout", "2", "--deadline", "2", "--cache", "cache", "--report", "report.json",
                             "--allow-host", f"127.0.0.1:{pages.httpd.server_address[1]}"],
                            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60, preexec_fn=limited)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    report = json.loads((tmp_path / "report.json").read_text())
    assert {c["url"].split(str(pages.httpd.server_address[1]))[1]: c["status"] for c in report["citations"]} == {p: s for p, (_, s) in PAGES.items()}
    assert other_port.hits("/secret") == 0
    for i, path in enumerate(PAGES):
        status = PAGES[path][1]
        if status != "found":
            assert f"sources/demo/hostile.yaml:{11 + 6 * i}:16: {status}: {pages.url(path)}" in result.stdout.splitlines()
    lock = CitationLock.load(folder)
    for path, (_, status) in PAGES.items():
        entry = lock.entry(pages.url(path), QUOTE)
        if status in ("blocked", "unreachable"):  # a network fault says nothing about the words: the earlier result stays
            assert (entry.status, entry.checked) == ("found", earlier)
        else:
            assert (entry.status, entry.checked) == (status, dt.date.fromisoformat(TODAY))


def test_allow_host_on_the_command_line_and_a_bad_one(run_cli, tmp_path, servers):
    pages, _ = servers
    port = pages.httpd.server_address[1]
    args = ["check-quote", pages.url("/good"), QUOTE, "--retries", "0", "--cache", str(tmp_path / "cache")]
    assert run_cli(*args, cwd=tmp_path).code == 2  # blocked: no text to check
    assert run_cli(*args, "--allow-host", f"127.0.0.1:{port}", cwd=tmp_path).code == 0
    assert run_cli(*args, "--allow-host", f"127.0.0.1:{port + 1 if port < 65535 else port - 1}", cwd=tmp_path).code == 2
    bad = run_cli(*args, "--allow-host", "127.0.0.1:http", cwd=tmp_path)
    assert (bad.code, bad.err.strip()) == (2, "error: --allow-host '127.0.0.1:http': the port must be a number from 1 to 65535")


def test_a_broken_settings_file_is_a_usage_error_at_its_line(run_cli, tmp_path, servers):
    (tmp_path / "pipeline.toml").write_text('# settings\nallow_hosts = ["127.0.0.1"\n', encoding="utf-8")
    result = run_cli("check-quote", servers[0].url("/good"), QUOTE, "--cache", str(tmp_path / "cache"), cwd=tmp_path)
    assert result.code == 2
    assert result.err.startswith("pipeline.toml:2:")


def test_allow_hosts_in_pipeline_toml_is_not_honoured(tmp_path, servers):
    """A content repository's settings file asking for loopback: warned of by name, nothing fetched, nothing locked."""
    pages, _ = servers
    folder = tmp_path / "sources" / "demo"
    folder.mkdir(parents=True)
    shutil.copy(FIXTURES / "exams" / "valid.yaml", folder / "exam.yaml")
    url = pages.url("/toml-only")
    pages.add("/toml-only", Reply(body=PAGE))
    (folder / "hostile.yaml").write_text(OBJECTIVE + POINT.format(i=0, url=url, quote=QUOTE), encoding="utf-8")
    port = pages.httpd.server_address[1]
    (tmp_path / "pipeline.toml").write_text(f'# settings\nallow_hosts = ["127.0.0.1:{port}", "169.254.169.254"]\n', encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-m", "pipeline", "audit", "--sources", "sources", "--today", TODAY, "--retries", "0",
                             "--interval", "0", "--timeout", "2", "--deadline", "2", "--cache", "cache"],
                            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 1, result.stderr
    assert (f"pipeline.toml:2:1: warning: allow_hosts: not honoured: a file in the content repository cannot allow loopback, private or "
            f"metadata addresses (127.0.0.1:{port}, 169.254.169.254); allow a host on the command line: --allow-host HOST[:PORT] [config]") in result.stderr
    assert pages.hits("/toml-only") == 0
    entry = CitationLock.load(folder).entry(url, QUOTE)
    assert entry.status in ("blocked", "unchecked") and entry.context is None and entry.closest is None and entry.fingerprint is None
    lock = (folder / LOCK_NAME).read_text(encoding="utf-8") if (folder / LOCK_NAME).exists() else ""
    assert QUOTE not in lock.replace(f'"quote": "{QUOTE}"', "")  # the quote as the source has it, never the page's text
