"""Locks and state files as hostile input (issue 37, item 7): each is read back within bounds and every field
checked for its type, so a wrong-typed field is exit 2 naming the file and the field, never exit 3.

Committed beside the sources: the citation lock, the examples lock, the item statistics, the deck state.
Left in the output folder: each generation's build state and the no-op builds' records (a broken one is
rebuilt, said, never trusted). And the paths that used to crash: `validate -v` on a question with an
unknown key, and a no-op build after a killed build left a generation behind."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from pipeline import build as build_module
from pipeline import render as registry
from pipeline.citations.lock import LOCK_NAME

FAST_RENDERERS = {name: registry.RENDERERS[name] for name in ("bank", "deck")}  # the deck's entry declares its state file
VALIDATE = ("validate", "--sources", "sources", "--today", "2026-11-29")
BUILD = ("build", "--sources", "sources", "--out", "out", "--today", "2026-11-29")


@pytest.fixture
def fast(monkeypatch):
    monkeypatch.setattr(build_module, "RENDERERS", FAST_RENDERERS)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1798156800")


def no_crash(result) -> None:
    assert result.code != 3 and "internal error" not in result.err and "Traceback" not in result.err, result.err


def edited(path: Path, change) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    change(doc)
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")


@pytest.mark.parametrize(("field", "value"), [("status", ["found"]), ("status", None), ("status", {"a": 1}), ("quote", ["a"]),
                                              ("url", {"a": 1}), ("checked", 20261101), ("score", "1"), ("warnings", "changed")])
@pytest.mark.parametrize("command", ["validate", "build"])
def test_a_wrong_type_in_the_citation_lock_is_exit_2_naming_the_field(run_cli, make_sources, tmp_path, fast, field, value, command):
    sources = make_sources("valid")
    edited(sources / "demo" / LOCK_NAME, lambda doc: doc["citations"][0].__setitem__(field, value))
    result = run_cli(*(VALIDATE if command == "validate" else BUILD), cwd=tmp_path)
    no_crash(result)
    assert result.code == 2
    line = result.err.strip().splitlines()[-1]
    assert line.startswith(f"sources/demo/{LOCK_NAME}:") and "error: the citation lock cannot be read" in line
    assert field in line or "an entry needs url, quote and status" in line, line


EXAMPLE_ENTRY = {"id": "2.1-counting-teeth", "status": "reproduced", "hash": "sha256:00", "ran": "2026-11-01", "actual": "True",
                 "environment": {"python": "3.11.2", "platform": "linux-x86_64", "device": "cpu", "isolation": "namespace",
                                 "requested": [["numpy", "2.0"]], "packages": {"numpy": "2.0"}}}


@pytest.mark.parametrize(("where", "value"), [(("status",), ["reproduced"]), (("exit",), "1"), (("actual",), 5), (("ran",), "yesterday"),
                                              (("environment", "python"), ["3.11"]), (("environment", "requested"), [["numpy"]]),
                                              (("environment",), "namespace"), (("id",), 7)])
def test_a_wrong_type_in_the_examples_lock_is_exit_2_naming_the_field(run_cli, make_sources, tmp_path, fast, where, value):
    sources = make_sources("valid", "site_every_type")
    entry = json.loads(json.dumps(EXAMPLE_ENTRY))
    at = entry
    for key in where[:-1]:
        at = at[key]
    at[where[-1]] = value
    lock = sources / "demo" / "examples.lock.json"
    lock.write_text(json.dumps({"about": "x", "format": 1, "examples": [entry]}, indent=2), encoding="utf-8")
    for command in (VALIDATE, BUILD):
        result = run_cli(*command, cwd=tmp_path)
        no_crash(result)
        assert result.code == 2, result.err
        line = result.err.strip().splitlines()[-1]
        assert line.startswith("sources/demo/examples.lock.json:") and "error: the examples lock cannot be read (examples.0." + ".".join(where) in line, line


def test_a_wrong_type_in_the_item_statistics_is_exit_2_naming_the_field(run_cli, make_sources, tmp_path, fast):
    sources = make_sources("valid")
    stats = sources / "demo" / "item-stats.json"
    stats.write_text(json.dumps({"about": "x", "format": 1, "exam": ["demo"], "date": "2026-11-29", "first_attempts_only": True, "files": [],
                                 "learners": 1, "answers": 1, "later_attempts": 0, "alpha_learners": 0, "items": {}}), encoding="utf-8")
    result = run_cli(*VALIDATE, cwd=tmp_path)
    no_crash(result)
    assert result.code == 2 and "sources/demo/item-stats.json:1:" in result.err and "(exam: Input should be a valid string)" in result.err


@pytest.mark.parametrize("value", [{"hash": ["0" * 32], "mod": 1}, {"hash": "0" * 32, "mod": "1"}, ["x"], None])
def test_a_wrong_type_in_the_deck_state_is_exit_2_naming_the_note(run_cli, make_sources, tmp_path, fast, value):
    make_sources("valid")
    assert run_cli(*BUILD, cwd=tmp_path).code == 0
    state = tmp_path / "sources" / "demo" / "deck.state.json"
    guid = next(iter(json.loads(state.read_text(encoding="utf-8"))["notes"]))
    edited(state, lambda doc: doc["notes"].__setitem__(guid, value))
    result = run_cli(*BUILD, "--force", cwd=tmp_path)
    no_crash(result)
    assert result.code == 2, result.err
    line = result.err.strip().splitlines()[-1]
    assert line.startswith("sources/demo/deck.state.json:") and f"error: the deck state cannot be read (note {guid[:40]!r}" in line, line


@pytest.mark.parametrize("value", [{"bank": {"digest": ["x"], "files": ["bank.json"]}}, {"bank": {"digest": "x", "files": "bank.json"}},
                                   {"bank": {"digest": "x", "files": ["../../etc/passwd"]}}, ["bank"]])
def test_a_wrong_type_in_a_build_state_rebuilds_and_says_so(run_cli, make_sources, tmp_path, fast, value):
    """The build's own file in OUT: not trusted, said, every output rebuilt (a user cannot be asked to mend it)."""
    make_sources("valid")
    assert run_cli(*BUILD, cwd=tmp_path).code == 0
    state = tmp_path / "out" / ".generations" / (Path(os.readlink(tmp_path / "out" / "demo")).name + ".state.json")
    edited(state, lambda doc: doc.__setitem__("renderers", value))
    result = run_cli(*BUILD, cwd=tmp_path)
    no_crash(result)
    assert result.code == 0
    field = "renderers" if isinstance(value, list) else "renderers.bank"
    warning = next(line for line in result.err.splitlines() if line.startswith(f"build: warning: {os.path.relpath(state, tmp_path)}:"))
    assert f": {field}: expected " in warning and warning.endswith("the build state cannot be read; every output of demo is rebuilt")
    assert "demo: wrote bank, deck in out/demo/ (-v lists the files)" in result.err.splitlines()


@pytest.mark.parametrize("damage", ["exams not a list", "an exam not an object", "files a string", "a diagnostic of numbers", "not JSON"])
def test_a_broken_no_op_record_takes_the_full_path(run_cli, make_sources, tmp_path, fast, damage):
    make_sources("valid")
    assert run_cli(*BUILD, cwd=tmp_path).code == 0
    records = tmp_path / "out" / ".generations" / "builds.json"
    changes = {"exams not a list": lambda r: r.__setitem__("exams", "demo"), "an exam not an object": lambda r: r.__setitem__("exams", [7]),
               "files a string": lambda r: r["exams"][0].__setitem__("files", "bank.json"),
               "a diagnostic of numbers": lambda r: r["diagnostics"].__setitem__("grouped", [[1, 2, 3, 4, 5, 6]])}
    if damage == "not JSON":
        records.write_text("[" * 100_000, encoding="utf-8")
    else:
        edited(records, lambda doc: changes[damage](doc[0]))
    result = run_cli(*BUILD, cwd=tmp_path)
    no_crash(result)
    assert result.code == 0 and "demo: unchanged: bank, deck" in result.err
    assert run_cli(*BUILD, cwd=tmp_path).code == 0  # and the record is whole again: the next one replays
    assert json.loads(records.read_text(encoding="utf-8"))[0]["exams"][0]["id"] == "demo"


def test_validate_verbose_on_a_question_with_an_unknown_key_is_not_a_crash(run_cli, make_sources, tmp_path):
    sources = make_sources("glossary_leaks")
    path = sources / "demo" / "glossary_leaks.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "questions:\n  - id: 1.1-q1\n    type: single\n    stem: What grows?\n    colour: red\n"
                    "    options: [KV cache, Nothing]\n    answer: KV cache\n    explanation: The page says so.\n", encoding="utf-8")
    result = run_cli("-v", *VALIDATE, cwd=tmp_path)
    no_crash(result)
    assert result.code == 1
    assert "questions[0].colour: unknown key 'colour'" in result.out
    assert "demo: generated items are listed once the schema errors above are fixed" in result.err


def test_a_no_op_build_removes_what_a_killed_build_left(run_cli, make_sources, tmp_path, fast):
    make_sources("valid")
    assert run_cli(*BUILD, cwd=tmp_path).code == 0
    generations = tmp_path / "out" / ".generations"
    (generations / "demo-7").mkdir()  # a killed build's generation and state (nothing else changed since the last build)
    (generations / "demo-7" / "bank.json").write_text("{half", encoding="utf-8")
    (generations / "demo-7.state.json").write_text('{"renderers": {}}', encoding="utf-8")
    result = run_cli(*BUILD, cwd=tmp_path)
    assert result.code == 0, result.err
    assert not (generations / "demo-7").exists() and not (generations / "demo-7.state.json").exists()
    assert "removed what an interrupted build left" in result.err
    again = run_cli(*BUILD, cwd=tmp_path)  # with nothing left over, the no-op replay again
    assert again.code == 0 and "demo: unchanged: bank, deck" in again.err
