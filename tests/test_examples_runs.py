"""`examples` on fixture exams whose examples need only the standard library: every status, the lock, the
freeze, drift as an error at its line with the diff, `--update` on a commented file, the offline checks."""

from __future__ import annotations

import datetime as dt
import difflib
import json
import os
import re

import pytest

from pipeline.check.validate import validate
from pipeline.derive import build_view
from pipeline.examples.environments import Environments, devices
from pipeline.examples.lock import ExamplesLock
from pipeline.examples.runner import Runner
from pipeline.examples.sandbox import Limits, Sandbox
from pipeline.settings.reader import exam_inputs
from schema.example_status import ExampleStatus
from tests.kit.examples import example_yaml, make_wheel, objective_file, write_exam

DAY = "2026-11-30"
REPRODUCES = example_yaml("1.1-hello", "print('hello')\nprint('  world')", "hello\n  world")
DRIFTS = example_yaml("1.1-sum", "print(1 + 1)", "3")
FAILS = example_yaml("1.1-fails", "import sys\nprint('about to fail')\nprint('bad input', file=sys.stderr)\nsys.exit(3)", "never")
HANGS = example_yaml("1.1-hangs", "while True:\n    pass", "never", timeout="2")
NEEDS_GPU = example_yaml("1.1-gpu", "print('gpu')", "gpu", device="cuda")
NOT_PYTHON = example_yaml("1.1-shell", "echo hi", "hi", language="bash")
WILDCARD = example_yaml("1.1-took", "import time\nstart = time.perf_counter()\nprint(f'took {time.perf_counter() - start:.6f} s')", "took ... s")


def examples(run_cli, root, *extra):
    return run_cli("examples", "--sources", "sources", "--today", DAY, *extra, cwd=root)


def lock_of(root) -> dict:
    raw = json.loads((root / "sources" / "demo" / "examples.lock.json").read_text())
    return {e["id"]: e for e in raw["examples"]}


def line_of(root, needle: str) -> int:
    return objective_file(root).read_text().split("\n").index(needle) + 1


def test_every_status_is_reported_and_locked(run_cli, tmp_path):
    write_exam(tmp_path, [REPRODUCES, DRIFTS, FAILS, HANGS, NEEDS_GPU, NOT_PYTHON, WILDCARD])
    result = examples(run_cli, tmp_path)
    assert result.code == 1
    locked = lock_of(tmp_path)
    gpu = "needs-device" if "cuda" not in devices() else "reproduced"
    assert {k: v["status"] for k, v in locked.items()} == {
        "1.1-hello": "reproduced", "1.1-sum": "drifted", "1.1-fails": "failed", "1.1-hangs": "timeout",
        "1.1-gpu": gpu, "1.1-shell": "not-run", "1.1-took": "reproduced"}
    assert locked["1.1-sum"]["actual"] == "2"
    # stderr: show merges it into the output, so the failure's last lines are both streams, in order
    assert (locked["1.1-fails"]["exit"], locked["1.1-fails"]["stderr"]) == (3, "about to fail\nbad input")
    assert locked["1.1-hangs"]["detail"] == "still running after 2 s: its processes were killed"
    assert locked["1.1-shell"]["detail"] == "only python examples are run, not bash"
    assert locked["1.1-hello"]["ran"] == DAY and locked["1.1-hello"]["environment"]["packages"] == {}
    output_line = line_of(tmp_path, "  - id: 1.1-sum") + 4  # id, title, code:, its one line, output: |-
    assert f"sources/demo/1-basics/1.1-counting.yaml:{output_line}:13: drifted: 1.1-sum" in result.lines[1]
    diff = result.lines[result.lines.index(next(line for line in result.lines if ": drifted: 1.1-sum" in line)) + 1:][:5]
    assert diff == ["    --- recorded", "    +++ actual", "    @@ -1 +1 @@", "    -3", "    +2"]
    assert "    affects key points: 1.1-count" in result.lines and "    affects questions: 1.1-q1" in result.lines
    shown = next(line for line in result.lines if line.startswith("    affects shown in: study-guide.pdf#example-1.1-sum,"))
    assert "site/objective-1-1.html#example-1.1-sum" in shown and "deck note " in shown
    assert re.search(r"examples: sandbox: bubblewrap \(new user, PID, network, mount and IPC namespaces; a fresh /proc;", result.err)
    assert locked["1.1-hello"]["environment"]["isolation"].startswith("bubblewrap; ")


def test_a_second_run_with_nothing_changed_runs_no_example(run_cli, tmp_path):
    write_exam(tmp_path, [REPRODUCES, DRIFTS, WILDCARD])
    first = examples(run_cli, tmp_path)
    lock_before = (tmp_path / "sources" / "demo" / "examples.lock.json").read_bytes()
    second = examples(run_cli, tmp_path)
    assert first.err.count("examples: running ") == 3
    assert second.err.count("examples: running ") == 0
    assert "3 run, 0 not run again" in first.err and "0 run, 3 not run again" in second.err
    assert (first.code, second.code) == (1, 1)  # the drift stands until fixed
    assert (tmp_path / "sources" / "demo" / "examples.lock.json").read_bytes() == lock_before
    forced = examples(run_cli, tmp_path, "--force", "--example", "1.1-hello")
    assert forced.err.count("examples: running ") == 1


def test_an_edited_example_runs_again_and_alone(run_cli, tmp_path):
    write_exam(tmp_path, [REPRODUCES, WILDCARD])
    examples(run_cli, tmp_path)
    path = objective_file(tmp_path)
    path.write_text(path.read_text().replace("print('hello')", "print('hello')  # reworded"))
    again = examples(run_cli, tmp_path)
    assert re.findall(r"examples: running (\S+)", again.err) == ["1.1-hello"]
    assert again.code == 0


def test_a_drifted_example_is_an_error_at_its_output_line_with_the_diff(run_cli, tmp_path):
    write_exam(tmp_path, [REPRODUCES, DRIFTS])
    examples(run_cli, tmp_path)
    result = run_cli("validate", "--sources", "sources", "--today", DAY, cwd=tmp_path)
    line = line_of(tmp_path, "  - id: 1.1-sum") + 4  # id, title, code:, its one line, output: |- (the block's node starts at |)
    assert result.code == 1
    at = next(i for i, line in enumerate(result.lines) if "[example-drifted]" in line)
    assert result.lines[at] == (f"sources/demo/1-basics/1.1-counting.yaml:{line}:13: error: examples[1].output: example '1.1-sum' printed "
                                f"something else at its last run ({DAY} with Python {Sandbox().python.version}); fix the code, or record "
                                "what it prints now: `exam-prep examples --example 1.1-sum --update` [example-drifted]")
    assert result.lines[at + 1:at + 6] == ["    --- recorded", "    +++ actual", "    @@ -1 +1 @@", "    -3", "    +2"]


def test_checks_can_lower_a_drift_and_the_outputs_then_mark_the_example(run_cli, tmp_path):
    sources = write_exam(tmp_path, [REPRODUCES, DRIFTS], exam_extra="checks: {example-drifted: warning}\n")
    examples(run_cli, tmp_path)
    result = run_cli("validate", "--sources", "sources", "--today", DAY, cwd=tmp_path)
    assert result.code == 0 and any(": warning: examples[1].output:" in line and "[example-drifted]" in line for line in result.lines)
    content = validate(sources, dt.date.fromisoformat(DAY)).exams[0]
    shown = {e.id: e for e in build_view(exam_inputs(content)).objective("1.1").examples}
    assert shown["1.1-sum"].status is ExampleStatus.DRIFTED and not shown["1.1-sum"].reproduced
    assert shown["1.1-sum"].run_text.startswith(f"output has changed since it was recorded: last run on {DAY} with Python 3.")
    assert shown["1.1-hello"].run_text.startswith(f"ran on {DAY} with Python 3.") and shown["1.1-hello"].run_text.endswith("(CPU)")


def test_update_changes_only_the_drifted_examples_output_lines(run_cli, tmp_path):
    multi = example_yaml("1.1-lines", "for i in range(3):\n    print('line', i)", "line 0\n# not a comment: output\nline 2")
    write_exam(tmp_path, [REPRODUCES, DRIFTS, multi])
    path = objective_file(tmp_path)
    before = path.read_text()
    result = examples(run_cli, tmp_path, "--update")
    after = path.read_text()
    assert result.code == 0
    changed = [line for line in difflib.unified_diff(before.split("\n"), after.split("\n"), lineterm="", n=0) if line[:1] in "+-" and line[:3] not in ("---", "+++")]
    assert changed == ["-      3", "+      2", "-      # not a comment: output", "+      line 1"]
    assert "  # example 1.1-sum" in after and after.endswith("# the end\n")  # comments stay
    assert "updating the output of 1.1-sum:" in result.err and "    +2" in result.err  # the diff, printed first
    assert {e["status"] for e in lock_of(tmp_path).values()} == {"reproduced"}
    check = run_cli("validate", "--sources", "sources", "--today", DAY, cwd=tmp_path)
    assert not [line for line in check.lines if "[example-" in line]
    assert examples(run_cli, tmp_path).err.count("examples: running ") == 0  # the updated lock is the freeze


def test_never_run_is_a_warning_an_error_under_strict(run_cli, tmp_path):
    write_exam(tmp_path, [REPRODUCES])
    result = run_cli("validate", "--sources", "sources", "--today", DAY, cwd=tmp_path)
    line = line_of(tmp_path, "  - id: 1.1-hello") + 2
    expected = (f"sources/demo/1-basics/1.1-counting.yaml:{line}:11: warning: examples[0].code: example '1.1-hello' has never been run; "
                "run `exam-prep examples` to run it and record the result [example-not-run]")
    assert result.code == 0 and expected in result.lines
    strict = run_cli("validate", "--sources", "sources", "--today", DAY, "--strict", cwd=tmp_path)
    assert strict.code == 1 and expected.replace(": warning: ", ": error: ") in strict.lines


def test_an_unreadable_lock_stops_the_run(run_cli, tmp_path):
    write_exam(tmp_path, [REPRODUCES])
    (tmp_path / "sources" / "demo" / "examples.lock.json").write_text("{not json")
    result = run_cli("validate", "--sources", "sources", "--today", DAY, cwd=tmp_path)
    assert result.code == 2
    assert "sources/demo/examples.lock.json:1:2: error: the examples lock cannot be read" in result.err


def test_a_bad_requirements_file_line_is_an_error_at_that_line(run_cli, tmp_path):
    write_exam(tmp_path, [REPRODUCES], exam_extra="examples: {requirements_file: example-requirements.txt}\n")
    (tmp_path / "sources" / "demo" / "example-requirements.txt").write_text("# what the examples need\nnumpy==2.4.6\n--index-url https://elsewhere.invalid/simple\n")
    result = run_cli("validate", "--sources", "sources", "--today", DAY, cwd=tmp_path)
    assert result.code == 1
    assert any(line.startswith("sources/demo/example-requirements.txt:3:1: error: this line is not a requirement from the package index")
               and line.endswith("[example-requirements]") for line in result.lines)
    assert "elsewhere.invalid" not in result.out


def test_an_unknown_example_id_is_a_usage_error(run_cli, tmp_path):
    write_exam(tmp_path, [REPRODUCES])
    result = examples(run_cli, tmp_path, "--example", "1.1-helo")
    assert result.code == 2 and "error: --example 1.1-helo: no example has this id; did you mean '1.1-hello'?" in result.err


def test_a_device_the_machine_lacks_is_not_run_and_says_so(tmp_path):
    sources = write_exam(tmp_path, [NEEDS_GPU])
    content = validate(sources, dt.date.fromisoformat(DAY)).exams[0]
    sandbox = Sandbox(Limits(timeout=10))
    runner = Runner(sandbox, Environments(tmp_path / "envs", sandbox.python, environ=os.environ), frozenset({"cpu"}), dt.date.fromisoformat(DAY))
    (run,) = runner.run_exam(content, ExamplesLock.load(content.folder))
    assert (run.entry.status, run.ran, run.entry.detail) == (ExampleStatus.NEEDS_DEVICE, False, "needs a cuda device, and this machine has none")


@pytest.mark.parametrize("stderr", ["show", "ignore"])
def test_stderr_is_part_of_the_output_unless_ignored(run_cli, tmp_path, stderr):
    code = "import sys, warnings\nprint('value 1')\nwarnings.warn('old API', DeprecationWarning)\nprint('value 2')"
    recorded = ("value 1\n/tmp/example/example.py:3: DeprecationWarning: old API\n  warnings.warn('old API', DeprecationWarning)\nvalue 2"
                if stderr == "show" else "value 1\nvalue 2")
    write_exam(tmp_path, [example_yaml("1.1-warns", code, recorded, stderr=stderr)])
    result = examples(run_cli, tmp_path)
    assert result.code == 0, result.out
    assert lock_of(tmp_path)["1.1-warns"]["status"] == "reproduced"


@pytest.fixture
def open_folder():
    """A folder the examples' unprivileged uid can read (pytest's own temporary folders are closed to others)."""
    import os
    import shutil
    import tempfile
    from pathlib import Path
    folder = Path(tempfile.mkdtemp(prefix="examples-envs-"))
    os.chmod(folder, 0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_one_environment_per_requirement_set_cached_by_its_hash(run_cli, tmp_path, open_folder, monkeypatch):
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    make_wheel(wheels)
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(wheels))
    uses = example_yaml("1.1-uses-pkg", "import demo_pkg\nprint(demo_pkg.VALUE)", "42")
    also = example_yaml("1.1-also-pkg", "import demo_pkg\nprint(demo_pkg.VALUE + 1)", "43")
    stdlib = example_yaml("1.1-stdlib", "import importlib.util\nprint(importlib.util.find_spec('demo_pkg'))", "None",
                          requirements="[]")
    write_exam(tmp_path, [uses, also, stdlib], exam_extra="")
    path = objective_file(tmp_path)
    path.write_text(path.read_text().replace("    title: Example 1.1-uses-pkg", "    title: Example 1.1-uses-pkg\n    requirements: [demo-pkg==1.0]")
                    .replace("    title: Example 1.1-also-pkg", "    title: Example 1.1-also-pkg\n    requirements: [demo-pkg==1.0]"))
    first = examples(run_cli, tmp_path, "--envs", str(open_folder))
    assert first.code == 0, first.out + first.err
    assert "1 environment(s) built" in first.err  # two examples, one requirement set
    locked = lock_of(tmp_path)
    assert locked["1.1-uses-pkg"]["environment"]["requested"] == [["demo-pkg", "1.0"]]
    assert locked["1.1-stdlib"]["environment"]["packages"] == {}  # nothing installed: the standard library alone
    forced = examples(run_cli, tmp_path, "--envs", str(open_folder), "--force")
    assert forced.err.count("examples: running ") == 3 and "0 environment(s) built" in forced.err
    assert len([p for p in open_folder.iterdir() if not p.name.startswith(".")]) == 1


def test_a_relative_envs_folder_builds_and_runs_like_an_absolute_one(run_cli, tmp_path, open_folder, monkeypatch):
    """The default --envs is relative (build/examples/envs): the environment it builds must be found again."""
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    make_wheel(wheels)
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(wheels))
    write_exam(tmp_path, [example_yaml("1.1-uses-pkg", "import demo_pkg\nprint(demo_pkg.VALUE)", "42")], exam_extra="")
    path = objective_file(tmp_path)
    path.write_text(path.read_text().replace("    title: Example 1.1-uses-pkg", "    title: Example 1.1-uses-pkg\n    requirements: [demo-pkg==1.0]"))
    ran = examples(run_cli, tmp_path, "--envs", os.path.relpath(open_folder, tmp_path))
    assert ran.code == 0, ran.out + ran.err
    assert "1 environment(s) built" in ran.err
    assert lock_of(tmp_path)["1.1-uses-pkg"]["status"] == "reproduced"


def test_update_splices_the_output_when_a_round_trip_would_reformat_more(run_cli, tmp_path):
    """A folded note indented past the usual (ruamel re-indents it): the output lines alone still change."""
    odd = ("  - id: 1.1-odd\n    title: Odd layout\n    code: print(6 * 7)\n    output: |-\n      41\n"
           "    note: >-\n            a folded note indented far\n            past the usual two spaces\n")
    write_exam(tmp_path, [odd])
    path = objective_file(tmp_path)
    before = path.read_text()
    result = examples(run_cli, tmp_path, "--update")
    after = path.read_text()
    assert result.code == 0, result.err
    changed = [line for line in difflib.unified_diff(before.split("\n"), after.split("\n"), lineterm="", n=0) if line[:1] in "+-" and line[:3] not in ("---", "+++")]
    assert changed == ["-      41", "+      42"]


HOSTILE = "\\x1b]0;pwned title\\x07\\x1b[2J\\x1b[H\\x1b]52;c;ZXZpbCBjbGlwYm9hcmQ=\\x07"  # title, clear screen, OSC 52 clipboard


def test_drift_diffs_and_stderr_print_terminal_escapes_as_text(run_cli, tmp_path):
    """What an example printed reaches the terminal escaped, as validate escapes it: no raw ESC or BEL."""
    drifts = example_yaml("1.1-title", f"print('{HOSTILE}')", "clean")
    fails = example_yaml("1.1-clear", f"import sys\nsys.stderr.write('{HOSTILE}\\n')\nsys.exit(2)", "never", stderr="show")
    write_exam(tmp_path, [drifts, fails])
    result = examples(run_cli, tmp_path)
    assert result.code == 1
    assert lock_of(tmp_path)["1.1-title"]["status"] == "drifted" and lock_of(tmp_path)["1.1-clear"]["status"] == "failed"
    shown = "\\x1b]0;pwned title\\x07\\x1b[2J\\x1b[H\\x1b]52;c;ZXZpbCBjbGlwYm9hcmQ=\\x07"
    assert f"    +{shown}" in result.lines  # the diff's line
    assert f"    {shown}" in result.lines  # the failure's stderr
    assert not any(ch in result.out + result.err for ch in "\x1b\x07")
    checked = run_cli("validate", "--sources", "sources", "--today", DAY, cwd=tmp_path)
    assert shown in checked.out and not any(ch in checked.out + checked.err for ch in "\x1b\x07")
