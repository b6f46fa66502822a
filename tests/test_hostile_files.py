"""Files the pipeline reads back, made hostile on disk: the committed citation lock (nested deep, huge, not
UTF-8, a FIFO, an address with an ESC sequence, an archive time that is no time), a build state, the
project's settings, and file names and texts that would steer a terminal. Each is an exit-2 message at
its line and column (a build state is repaired, with a warning at its place); none exits 3, none hangs,
and nothing printed holds a raw control character."""

from __future__ import annotations

import json
import os
import re

import pytest

from pipeline.citations.lock import LOCK_NAME
from tests.conftest import TODAY

RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
ENTRY = '{{"quote": "Things are made of stuff.", "status": "found", "url": "https://example.com/things"{extra}}}'


@pytest.mark.parametrize(("field", "value", "reason"), [
    ("moved_to", '"https://new.example/\\u001b]0;owned\\u0007"', "moved_to: the address holds control or formatting characters"),
    ("archive_timestamp", '"99991399000000"', "archive_timestamp: expected a real time as YYYYMMDDhhmmss"),
    ("final_url", '"javascript:alert(1)"', "final_url: the address must be an absolute http:// or https:// address"),
    ("status", '"fine"', "status: not a citation status"),
    ("score", "7", "score: expected a number from 0 to 1"),
    ("surprise", "1", "surprise: not a field of a lock entry"),
])
def test_a_lock_entry_that_is_not_what_the_audit_writes_is_an_error_at_its_field(run_cli, make_sources, field, value, reason):
    sources = make_sources("valid")
    entry = ENTRY.format(extra="").replace('"status": "found", ', "") if field == "status" else ENTRY.format(extra="")
    entry = entry[:-1] + f', "{field}": {value}}}'
    text = '{\n  "citations": [\n    ' + entry + '\n  ],\n  "format": 1\n}\n'
    (sources / "demo" / LOCK_NAME).write_text(text, encoding="utf-8")
    col = text.splitlines()[2].index(f'"{field}": ') + len(f'"{field}": ') + 1
    result = run_cli("validate", "--sources", "sources", "--today", TODAY, cwd=sources.parent)
    assert result.code == 2, result.err
    assert result.err.startswith(f"sources/demo/citations.lock.json:3:{col}: error: the citation lock cannot be read ({reason}"), result.err
    assert not RAW.search(result.out + result.err)


@pytest.mark.parametrize(("content", "where", "reason"), [
    ('{"citations": ' + "[" * 100_000 + "]" * 100_000 + "}", "1:30", "nested more than 16 levels deep"),
    (b'{"citations": [], "about": "caf\xe9"}', "1:32", "not UTF-8 (byte 0xe9)"),
    ('{"citations": [], "format": 2}', "1:29", "format 2, expected 1"),
    ("[1, 2]", "1:1", "expected an object with a list of citations"),
])
def test_a_broken_lock_is_an_environment_error_at_its_place(run_cli, make_sources, content, where, reason):
    sources = make_sources("valid")
    path = sources / "demo" / LOCK_NAME
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    for verb in ("validate", "build"):
        result = run_cli(verb, "--sources", "sources", "--today", TODAY, cwd=sources.parent)
        assert result.code == 2, result.err
        assert result.err.strip().splitlines()[-1].startswith(f"sources/demo/citations.lock.json:{where}: error: the citation lock cannot be read ({reason}")


def test_a_huge_lock_or_a_fifo_is_refused_without_reading_it(run_cli, make_sources):
    sources = make_sources("valid")
    path = sources / "demo" / LOCK_NAME
    with open(path, "wb") as handle:
        handle.truncate(64_000_001)  # sparse: nothing written, over the bound
    result = run_cli("validate", "--sources", "sources", "--today", TODAY, cwd=sources.parent)
    assert (result.code, "over 64,000,000 bytes" in result.err) == (2, True), result.err
    path.unlink()
    os.mkfifo(path)  # a reader that opened it would wait for ever
    result = run_cli("validate", "--sources", "sources", "--today", TODAY, cwd=sources.parent)
    assert result.code == 2 and "citations.lock.json:1:1: error: the citation lock cannot be read (not a regular file)" in result.err


def test_a_broken_build_state_is_repaired_with_a_warning_at_its_place(run_cli, make_sources, monkeypatch):
    from pipeline import build as build_module

    monkeypatch.setattr(build_module, "RENDERERS", {"bank": "pipeline.render.bank"})
    sources = make_sources("valid")
    args = ("build", "--sources", "sources", "--out", "out", "--today", TODAY)
    assert run_cli(*args, cwd=sources.parent).code == 0
    state = next((sources.parent / "out" / ".generations").glob("demo-*.state.json"))
    state.write_text('{"renderers": ' + "{" * 50_000 + "}" * 50_000 + "}", encoding="utf-8")
    result = run_cli(*args, cwd=sources.parent)
    assert result.code == 0, result.err
    assert f"build: warning: {os.path.relpath(state, sources.parent)}:1:" in result.err and "every output of demo is rebuilt" in result.err
    assert json.loads((sources.parent / "out" / "demo" / "bank.json").read_text())["questions"]
    escaping = {"renderers": {"bank": {"digest": "x", "files": ["../../../etc/passwd"]}}}  # would copy a file from outside
    next((sources.parent / "out" / ".generations").glob("demo-*.state.json")).write_text(json.dumps(escaping))
    result = run_cli(*args, cwd=sources.parent)
    assert result.code == 0 and "renderers.bank: expected its digest, files" in result.err, result.err


def test_deeply_nested_settings_are_a_usage_error(run_cli, tmp_path):
    (tmp_path / "pipeline.toml").write_text("allow_hosts = []\nx = " + "[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    result = run_cli("check-quote", "http://127.0.0.1:9/", "quote", "--retries", "0", cwd=tmp_path)
    assert (result.code, result.err.strip()) == (2, "pipeline.toml:2:21: error: invalid TOML: nested more than 16 levels deep [config]")


def test_file_names_and_texts_that_would_steer_the_terminal_are_shown_inert(run_cli, make_sources):
    sources = make_sources("valid")
    (sources / "demo" / "evil\x1b]0;owned\x07\x1b[2J.yaml").write_text("id: [unclosed\n", encoding="utf-8")
    valid = sources / "demo" / "valid.yaml"
    valid.write_text(valid.read_text().replace("What are things made of?", "What \u202eare things made of?"), encoding="utf-8")
    (sources / "demo" / os.fsdecode(b"bad\xff.yaml")).write_bytes(b"id: [\n")  # not UTF-8: a lone surrogate in Python
    result = run_cli("validate", "--sources", "sources", "--today", TODAY, cwd=sources.parent)
    assert result.code == 1
    assert not RAW.search(result.out + result.err), RAW.search(result.out + result.err)
    assert "sources/demo/evil\\x1b]0;owned\\x07\\x1b[2J.yaml:1:5: error:" in result.out and "What \\u202eare things" not in result.out
