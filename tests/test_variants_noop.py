"""No-op `variants` runs (pipeline/variants/unchanged.py): with nothing changed, nothing is validated, drawn
or written, and the run says so; a change of any kind that matters draws that question again, and errors
in the sources are still reported. Sandbox runs are counted from what the tool prints (each draw says
"N seed(s) drawn ... (K sandbox run(s))", the closing line "D drawn (K sandbox run(s))") and from the lock's
bytes and mtime, never from timings."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

from tests.conftest import ROOT, TODAY
from tests.kit.variants import PLAIN, SAFE_RATIO, ZIP, objective, write_varied

REPLAYED = "nothing validated or drawn again"
OTHER = SAFE_RATIO.replace("1.1-ratio", "1.1-other").replace("How many times smaller", "By what factor is it smaller")
VALUES = ZIP


def closing(err: str) -> str:
    return [line for line in err.splitlines() if line.startswith("variants: ") and "varied question(s)" in line][-1]


def drawn(err: str) -> list[str]:
    """The ids of the questions this run drew, from their report lines."""
    return re.findall(r"^variants: (\S+): \d+ seed\(s\) drawn", err, re.MULTILINE)


def edit(root, old: str, new: str, after: str = "- id: 1.1-ratio") -> None:
    """Replace the first `old` at or after `after` in the objective file (so one question is edited)."""
    text = objective(root).read_text()
    at = text.index(after)
    assert old in text[at:], old
    objective(root).write_text(text[:at] + text[at:].replace(old, new, 1))


def test_nothing_changed_runs_no_sandbox_and_writes_nothing(tmp_path, run_cli):
    sources = write_varied(tmp_path, SAFE_RATIO, OTHER, PLAIN)
    first = run_cli("variants", "--sources", str(sources), "--today", TODAY, cwd=tmp_path)
    assert first.code == 0 and sorted(drawn(first.err)) == ["1.1-other", "1.1-ratio"], first.err
    assert "2 drawn (2 sandbox run(s))" in closing(first.err)
    lock = sources / "demo" / "variants.lock.json"
    before = (lock.read_bytes(), lock.stat().st_mtime_ns)
    again = run_cli("variants", "--sources", str(sources), "--today", TODAY, cwd=tmp_path)
    assert again.code == 0 and drawn(again.err) == [] and again.out == ""
    assert "2 varied question(s) with code, 0 drawn (0 sandbox run(s))" in closing(again.err) and REPLAYED in closing(again.err)
    assert (lock.read_bytes(), lock.stat().st_mtime_ns) == before
    # the record is a file on disk: what it holds is printed inert, and a record of another shape is not one
    records = tmp_path / "build" / "examples" / "envs" / "variants-runs.json"
    kept = records.read_text()
    tampered = json.loads(kept)
    tampered[0]["out"] = ["\x1b]52;c;planted\x07"]
    records.write_text(json.dumps(tampered))
    shown = run_cli("variants", "--sources", str(sources), "--today", TODAY, cwd=tmp_path)
    assert shown.out == "\\x1b]52;c;planted\\x07\n" and "\x1b" not in shown.out
    tampered[0]["code"] = 7
    records.write_text(json.dumps(tampered))
    assert REPLAYED not in run_cli("variants", "--sources", str(sources), "--today", TODAY, cwd=tmp_path).err
    records.write_text(kept)
    # without the record (a cleared cache), the full path validates and finds every entry unchanged: no sandbox either
    records.unlink()
    full = run_cli("variants", "--sources", str(sources), "--today", TODAY, cwd=tmp_path)
    assert full.code == 0 and drawn(full.err) == [] and "0 drawn (0 sandbox run(s))" in closing(full.err) and REPLAYED not in full.err
    assert (lock.read_bytes(), lock.stat().st_mtime_ns) == before
    # that run left a record too; another day or another --stress is another run's settings: the full path again
    assert REPLAYED in closing(run_cli("variants", "--sources", str(sources), "--today", TODAY, cwd=tmp_path).err)
    other_day = run_cli("variants", "--sources", str(sources), "--today", "2026-11-30", cwd=tmp_path)
    assert other_day.code == 0 and REPLAYED not in other_day.err and drawn(other_day.err) == []
    more = run_cli("variants", "--sources", str(sources), "--today", TODAY, "--stress", "25", cwd=tmp_path)
    assert sorted(drawn(more.err)) == ["1.1-other", "1.1-ratio"]  # a larger stress draw than the lock's is drawn
    forced = run_cli("variants", "--sources", str(sources), "--today", TODAY, "--stress", "25", "--force", cwd=tmp_path)
    assert REPLAYED not in forced.err and sorted(drawn(forced.err)) == ["1.1-other", "1.1-ratio"]


def test_a_replayed_run_reports_the_locks_findings_as_the_full_run_does(tmp_path, run_cli):
    bounded = SAFE_RATIO.replace("    count: 3\n", "    count: 3\n    bounds: {low: 0, high: 3}\n")  # 16/2 = 8 leaves them
    sources = write_varied(tmp_path, bounded)
    first = run_cli("variants", "--sources", str(sources), "--today", TODAY, cwd=tmp_path)
    assert first.code == 1 and first.out.rstrip().endswith("[variant-bounds]"), first.out
    again = run_cli("variants", "--sources", str(sources), "--today", TODAY, cwd=tmp_path)
    assert REPLAYED in closing(again.err) and drawn(again.err) == []
    assert (again.code, again.out) == (first.code, first.out)
    assert "1 with findings" in closing(again.err)


def test_each_change_that_matters_draws_that_question_again(tmp_path, run_cli):
    sources = write_varied(tmp_path, SAFE_RATIO, OTHER, PLAIN)
    assert run_cli("variants", "--sources", str(sources), "--today", TODAY, cwd=tmp_path).code == 0
    lock = sources / "demo" / "variants.lock.json"
    changes = {  # what an author edits in 1.1-ratio (each on top of the ones before)
        "code": ("r.randint(100, 999)", "r.randint(100, 998)"),
        "count": ("count: 3", "count: 4"),
        "seed": ("      count: 4\n", "      count: 4\n      seed: spring\n"),
        "bounds": ("      seed: spring\n", "      seed: spring\n      bounds: {low: 0, high: 100}\n"),
        "distractors": ("      bounds: {low: 0, high: 100}\n", "      bounds: {low: 0, high: 100}\n      distractors: [low]\n"),
        "environment": ("      distractors: [low]\n", "      distractors: [low]\n      environment: stdlib\n"),
        "stem": ("How many times smaller is it", "By how many times is it smaller"),
        "explanation": ('explanation: "{{ high }} / {{ low }}', 'explanation: "{{ high }} over {{ low }}'),
        "tolerance": ('tolerance: "{{ tol }}"', "tolerance: 0.02"),
    }
    redrawn = []
    for kind, (old, new) in changes.items():
        before = json.loads(lock.read_text())["questions"]
        edit(tmp_path, old, new)
        result = run_cli("variants", "--sources", str(sources), "--today", TODAY, cwd=tmp_path)
        assert result.code == 0 and REPLAYED not in result.err, (kind, result.out, result.err)
        assert drawn(result.err) == ["1.1-ratio"], (kind, result.err)
        after = {e["id"]: e for e in json.loads(lock.read_text())["questions"]}
        assert after["1.1-ratio"]["hash"] != next(e for e in before if e["id"] == "1.1-ratio")["hash"], kind
        assert after["1.1-other"] == next(e for e in before if e["id"] == "1.1-other"), kind  # only that question's entry
        assert REPLAYED in closing(run_cli("variants", "--sources", str(sources), "--today", TODAY, cwd=tmp_path).err), kind
        redrawn.append(kind)
    assert redrawn == list(changes)
    # another machine's entry (its Python, as the lock records it) is drawn again here, as the examples' freeze does
    text = lock.read_text()
    python = json.loads(text)["questions"][0]["environment"]["python"]
    lock.write_text(text.replace(f'"python": "{python}"', '"python": "3.0.0"', 1))
    moved = run_cli("variants", "--sources", str(sources), "--today", TODAY, cwd=tmp_path)
    assert drawn(moved.err) == ["1.1-other"] and json.loads(lock.read_text())["questions"][0]["environment"]["python"] == python


def test_an_error_in_the_sources_is_reported_after_a_clean_run(tmp_path, run_cli):
    sources = write_varied(tmp_path, SAFE_RATIO, VALUES, PLAIN)
    assert run_cli("variants", "--sources", str(sources), "--today", TODAY, cwd=tmp_path).code == 0
    # a `values:` list of another length under combine: zip (a schema error), in a question `variants` does not draw
    edit(tmp_path, "gb: [3.5, 6.5, 140]", "gb: [3.5, 6.5]", after="- id: 1.1-zip")
    broken = run_cli("variants", "--sources", str(sources), "--today", TODAY, cwd=tmp_path)
    assert broken.code == 1 and "combine: zip needs lists of one length" in broken.out and "variants: not run" in broken.err, broken.out + broken.err
    assert "variants: not run" in run_cli("variants", "--sources", str(sources), "--today", TODAY, cwd=tmp_path).err  # never recorded
    edit(tmp_path, "gb: [3.5, 6.5]", "gb: [3.5, 6.5, 140]", after="- id: 1.1-zip")
    assert REPLAYED in closing(run_cli("variants", "--sources", str(sources), "--today", TODAY, cwd=tmp_path).err)  # as it was: recorded
    # an error outside any varied question (a true/false answered "maybe") is reported too
    edit(tmp_path, "answer: true", "answer: maybe", after="- id: 1.1-plain")
    plain = run_cli("variants", "--sources", str(sources), "--today", TODAY, cwd=tmp_path)
    assert plain.code == 1 and "1.1-sizes.yaml:" in plain.out and "variants: not run" in plain.err, plain.out + plain.err


def test_a_no_op_run_loads_no_checks_and_no_pydantic(tmp_path, run_cli):
    """In a process of its own: the replay path imports neither the loader, the checks nor pydantic."""
    sources = write_varied(tmp_path, SAFE_RATIO)
    assert run_cli("variants", "--sources", str(sources), "--today", TODAY, cwd=tmp_path).code == 0
    probe = ("import sys\nfrom pipeline.cli.main import main\n"
             f"code = main(['variants', '--sources', {str(sources)!r}, '--today', {TODAY!r}])\n"
             "print(code, sorted(m for m in ('pydantic', 'pipeline.check.validate', 'pipeline.load.loader', 'yaml') if m in sys.modules))")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, env=env, check=False)
    assert done.stdout.strip() == "0 []", done.stdout + done.stderr
    assert REPLAYED in done.stderr
