"""What a newcomer reads (issue 35, item 9): the two YAML slips and the broken pipeline.toml list diagnosed at
the author's mistake with the fix, `build` saying one line per exam unless -v, `serve` printing only its own
lines, and every count equal to the lines printed above it. Each runs as a real process but the YAML slips,
whose diagnostics are the pipeline's text whatever the process (run in-process, a second each saved)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, ROOT, TODAY
from tests.kit.serve import URL, Serving, make_project

HEAD = 'id: "1.1"\ntitle: Basics\nsummary: What things are.\nreviewed: 2026-11-01\n'
TWO_QUOTES = HEAD + """\
key_points:
  - id: 1.1-a
    text: Things are made of stuff.
    citations:
      - {url: "https://example.com/a", title: A, quote: "Things are made of stuff."}
  - id: 1.1-b
    text: Stuff is made of atoms.
    citations:
      - {url: "https://example.com/b", title: B, quote: "Stuff is made of atoms."}
questions:
  - {id: 1.1-q1, type: true_false, stem: Things are made of stuff., answer: true, explanation: The page says so., key_points: [1.1-a]}
"""


def run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    env.pop("EXAM_PREP_RUN_BY", None)
    return subprocess.run([sys.executable, "-m", "pipeline", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


@pytest.fixture
def project(tmp_path) -> Path:
    """A content folder with one exam `demo`, its one objective file written by each test."""
    folder = tmp_path / "sources" / "demo"
    folder.mkdir(parents=True)
    (folder / "exam.yaml").write_text((FIXTURES / "exams" / "valid.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    return tmp_path


@pytest.fixture
def validated(run_cli, monkeypatch):
    """`validate` of a project run in-process, its result shaped as a finished process's."""
    monkeypatch.delenv("EXAM_PREP_RUN_BY", raising=False)  # as `run` does: the advice names python -m pipeline

    def validate(project: Path) -> subprocess.CompletedProcess[str]:
        result = run_cli("validate", "--today", TODAY, cwd=project)
        return subprocess.CompletedProcess(["validate"], result.code, result.out, result.err)

    return validate


def objective(project: Path, text: str) -> None:
    (project / "sources" / "demo" / "1.1.yaml").write_text(text, encoding="utf-8")


# -- YAML and TOML slips -----------------------------------------------------------------------------------------


def test_a_comma_inside_a_flow_mapping_value_says_quote_it(project, validated):
    objective(project, TWO_QUOTES + "terms:\n  - {term: GPU, definition: A unit, for fast math}\n")
    done = validated(project)
    assert done.returncode == 1
    errors = [line for line in done.stdout.splitlines() if ": error: " in line]
    assert errors == ["sources/demo/1.1.yaml:17:29: error: terms[0].definition: the ',' in this value ends it inside {...}, so "
                      """'for fast math' was read as a key; quote the value: definition: "A unit, for fast math" [yaml]"""], done.stdout


def test_the_quoted_value_the_comma_message_gives_is_valid(project, validated):
    objective(project, TWO_QUOTES + 'terms:\n  - {term: GPU, definition: "A unit, for fast math"}\n')
    done = validated(project)
    assert done.returncode == 0 and ": error: " not in done.stdout, done.stdout + done.stderr


def test_a_key_indented_more_than_the_key_above_it_says_so_at_the_key(project, validated):
    text = TWO_QUOTES.replace("questions:\n  - {id: 1.1-q1", "questions:\n  - id: 1.1-q2\n    type: single\n    stem: Which?\n"
                              "    options: [Stuff, Nothing]\n      answer: Stuff\n    explanation: It is.\n  - {id: 1.1-q1")
    objective(project, text)
    lines = text.splitlines()
    assert lines[18] == "      answer: Stuff" and lines[17] == "    options: [Stuff, Nothing]"  # lines 19 and 18
    done = validated(project)
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        "sources/demo/1.1.yaml:19:7: error: invalid YAML: this key is indented 6 spaces, more than the key above it (4, line 18), "
        "which already has its value; line it up with that key (4 spaces) [yaml]"], done.stdout


def test_a_deeper_key_after_a_plain_value_is_the_same_mistake_at_the_key(project, validated):
    text = TWO_QUOTES.replace("questions:\n  - {id: 1.1-q1", "questions:\n  - id: 1.1-q2\n    type: single\n      stem: Which?\n  - {id: 1.1-q1")
    objective(project, text)
    done = validated(project)
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        "sources/demo/1.1.yaml:17:7: error: invalid YAML: this key is indented 6 spaces, more than the key above it (4, line 16), "
        "which already has its value; line it up with that key (4 spaces) [yaml]"], done.stdout


TOML = {
    "a list never closed": ('outputs = ["guide",\n  "deck"\nstrict = true\n', "1:11",
                            "invalid TOML: the [ opened here is never closed before line 3; close it with ] after its last item"),
    "a list at the end of the file": ('outputs = ["guide", "deck"\n', "1:11",
                                      "invalid TOML: the [ opened here is never closed before the end of the file; close it with ] "
                                      "after its last item"),
    "a missing comma": ('outputs = ["guide" "deck"]\n', "1:20",
                        "invalid TOML: Unexpected character: '\"'; the items of a list are separated by commas: put a ',' before this item"),
    "text without quotes": ("paper = a4\n", "1:9", 'invalid TOML: Unexpected character: \'a\'; text needs quotes: "a4"'),
    "a table name never closed": ('strict = true\n[exams.demo\npaper = "a4"\n', "2:1",
                                  "invalid TOML: the [ opened here is never closed before the end of its line; close it with ] after "
                                  "the table's name"),
}


@pytest.mark.parametrize("case", sorted(TOML))
def test_a_broken_pipeline_toml_is_reported_at_the_mistake_with_a_column_from_1(project, case):
    text, place, message = TOML[case]
    objective(project, TWO_QUOTES)
    (project / "pipeline.toml").write_text(text, encoding="utf-8")
    done = run(project, "validate", "--today", TODAY)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == f"pipeline.toml:{place}: error: {message} [config]", done.stderr


# -- build: one line per exam, counts equal to lines ---------------------------------------------------------------

WARNING = re.compile(r"^\S+:\d+:\d+: warning: ")
SUMMARY = re.compile(r"^validate: 1 exam\(s\), 1 objective\(s\): (\d+) error\(s\), (\d+) warning\(s\)$")


def _counts(done: subprocess.CompletedProcess[str]) -> tuple[int, int, int]:
    """Warnings printed (lines), warnings in the summary line, warnings in the table's row for demo."""
    shown = sum(bool(WARNING.match(line)) for line in done.stdout.splitlines())
    summary = next(m for line in done.stderr.splitlines() if (m := SUMMARY.match(line)))
    row = next(line.split() for line in done.stderr.splitlines() if line.startswith("demo "))
    return shown, int(summary[2]), int(row[2])


@pytest.mark.slow  # two whole builds in real processes, the guide's PDF twice
def test_build_says_one_line_per_exam_and_minus_v_lists_the_files(project):
    objective(project, TWO_QUOTES)
    done = run(project, "build", "--today", TODAY, "--out", "out")
    assert done.returncode == 0, done.stderr
    assert not [line for line in done.stderr.splitlines() if line.startswith("wrote ")], done.stderr
    about_outputs = [line for line in done.stderr.splitlines() if line.startswith("demo: wrote ")]
    assert about_outputs == ["demo: wrote guide, deck, bank, site, moodle, gift, qti21, canvas in out/demo/ (-v lists the files)"]
    assert len(done.stderr.splitlines()) < 12, done.stderr  # was about 40: a line per file

    again = run(project, "build", "--today", TODAY, "--out", "out", "--force", "-v")
    written = [line.removeprefix("wrote out/demo/") for line in again.stderr.splitlines() if line.startswith("wrote ")]
    assert {"study-guide.pdf", "deck.apkg", "bank.json", "site/index.html", "moodle.xml", "qti21.zip"} <= set(written), again.stderr


def test_every_count_equals_the_warning_lines_printed_above_it(project):
    objective(project, TWO_QUOTES)  # never audited: two quotes not checked, shown as one line without -v
    for verbose in ((), ("-v",)):  # the bank alone: these warnings are the sources', the same whatever the outputs
        done = run(project, "build", "--today", TODAY, "--out", "out", "--force", "--only", "bank", *verbose)
        assert done.returncode == 0, done.stderr
        shown, summary, table = _counts(done)
        assert shown == summary == table and shown >= 1, (verbose, done.stdout, done.stderr)
        assert shown == (2 if verbose else 1), done.stdout  # -v shows each quote, else one line says "2 quotes not checked"
    plain, verbose_ = (_counts(run(project, "validate", "--today", TODAY, *v))[0] for v in ((), ("-v",)))
    assert verbose_ == plain + 1  # the one grouped line stands for the two quotes


@pytest.mark.slow  # a whole build in a real process, the guide's PDF, then its no-op
def test_a_no_op_build_says_what_the_build_before_said_and_counts_alike(project):
    objective(project, TWO_QUOTES)
    first = run(project, "build", "--today", TODAY, "--out", "out")
    again = run(project, "build", "--today", TODAY, "--out", "out")
    assert first.returncode == again.returncode == 0
    assert _counts(again) == _counts(first) and first.stdout == again.stdout
    assert [line for line in again.stderr.splitlines() if line.startswith("demo: ")][-1] == (
        "demo: unchanged: guide, deck, bank, site, moodle, gift, qti21, canvas (inputs did not change; --force rebuilds, -v lists the files)")


# -- serve: its own lines only -------------------------------------------------------------------------------------


def test_serve_prints_only_its_own_lines_through_an_edit_and_ctrl_c(tmp_path):
    project = make_project(tmp_path)
    serving = Serving(project)
    try:
        serving.wait_for(URL)
        source = project / "sources" / "demo" / "valid.yaml"
        deadline, edits = time.monotonic() + 60, 0
        while not any(line.startswith("serve: demo: site") for line in serving.lines[2:]) and time.monotonic() < deadline:
            if not any(line.startswith("serve: changed: ") for line in serving.lines):  # the watch may start a moment after the URL line
                source.write_text(source.read_text(encoding="utf-8") + "# an edit\n", encoding="utf-8")
                edits += 1
            time.sleep(0.5)
        assert edits >= 1
        assert serving.stop() == 0
    finally:
        if serving.process.poll() is None:
            serving.process.kill()
    lines = serving.lines
    assert any(line.startswith("serve: changed: ") for line in lines) and lines[-1] == "serve: stopped", lines
    strangers = [line for line in lines if not (line.startswith("serve: ") or re.match(r"^sources/\S+:\d+:\d+: (error|warning): ", line))]
    assert strangers == [], lines  # was: "KeyboardInterrupt caught, stopping watch" (watchfiles' log line)
