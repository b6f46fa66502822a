"""Varied questions: the schema, the `variants` command (real sandbox runs), its lock, and the stress test's
planted faults, each reported at the question's line with the seeds that show it."""

from __future__ import annotations

import json
import re

from pipeline.settings.reader import exam_inputs
from tests.conftest import TODAY
from tests.kit.examples import Canary
from tests.kit.variants import PLAIN, SAFE_RATIO, ZIP, line_of, objective, write_varied


def varied_code(qid: str, code: str, *, kind: str = "numeric", extra: str = "", count: int = 3) -> str:
    body = "\n".join("      " + line for line in code.strip("\n").splitlines())
    head = {"numeric": f'- id: {qid}\n  type: numeric\n  stem: "What is x for {{{{ a }}}} apples?"\n  answer: "{{{{ answer }}}}"\n',
            "single": f'- id: {qid}\n  type: single\n  stem: "Which is right for {{{{ a }}}} apples?"\n'
                      f'  options: ["{{{{ answer }}}}", "{{{{ wrong }}}}", "{{{{ other }}}}"]\n  answer: "{{{{ answer }}}}"\n'}[kind]
    return (head + '  explanation: "Because of {{ a }}."\n  key_points: [1.1-size]\n' + extra +
            f"  variants:\n    count: {count}\n    code: |\n{body}\n")


def findings(out: str, code: str) -> list[str]:
    return [line for line in out.splitlines() if line.endswith(f"[{code}]")]


def test_variants_draws_each_seed_in_the_sandbox_and_locks_the_values(tmp_path, run_cli):
    sources = write_varied(tmp_path, SAFE_RATIO)
    first = run_cli("variants", "--sources", str(sources), "--today", TODAY, cwd=tmp_path)
    assert first.code == 0, first.out + first.err
    lock_path = sources / "demo" / "variants.lock.json"
    lock = json.loads(lock_path.read_text())
    entry = lock["questions"][0]
    assert entry["id"] == "1.1-ratio" and entry["draws"] == 20
    assert [v["index"] for v in entry["variants"]] == [1, 2, 3]
    for v in entry["variants"]:
        assert v["values"]["answer"] == v["values"]["high"] / v["values"]["low"]
    assert entry["environment"]["isolation"].startswith("bubblewrap")
    assert re.search(r"1.1-ratio: 20 seed\(s\) drawn in [0-9.]+ s .*answers [0-9.]+ to [0-9.]+", first.err)
    before = lock_path.read_bytes()
    again = run_cli("variants", "--sources", str(sources), "--today", TODAY, "--force", cwd=tmp_path)
    assert again.code == 0 and lock_path.read_bytes() == before  # seeds from the id, never the clock: the same bytes


def test_a_changed_count_changes_only_that_questions_entries(tmp_path, run_cli):
    other = SAFE_RATIO.replace("1.1-ratio", "1.1-other").replace("Sizes", "Sizes")
    other = other.replace("How many times smaller", "By what factor are smaller")
    sources = write_varied(tmp_path, SAFE_RATIO, other)
    assert run_cli("variants", "--sources", str(sources), "--today", TODAY, cwd=tmp_path).code == 0
    lock_path = sources / "demo" / "variants.lock.json"
    before = {e["id"]: e for e in json.loads(lock_path.read_text())["questions"]}
    text = objective(tmp_path).read_text()
    objective(tmp_path).write_text(text.replace("count: 3", "count: 4", 1))
    stale = run_cli("validate", "--sources", str(sources), "--today", TODAY, cwd=tmp_path)
    assert findings(stale.out, "variants-stale") and stale.code == 0  # a warning
    strict = run_cli("validate", "--sources", str(sources), "--today", TODAY, "--strict", cwd=tmp_path)
    assert strict.code == 1 and "run `" in findings(strict.out, "variants-stale")[0]
    assert run_cli("variants", "--sources", str(sources), "--today", TODAY, cwd=tmp_path).code == 0
    after = {e["id"]: e for e in json.loads(lock_path.read_text())["questions"]}
    assert after["1.1-other"] == before["1.1-other"]
    assert len(after["1.1-ratio"]["variants"]) == 4 and after["1.1-ratio"]["variants"][:3] == before["1.1-ratio"]["variants"]
    assert after["1.1-ratio"]["hash"] != before["1.1-ratio"]["hash"]
    # a changed seed rule (the question's `seed` text) redraws that question alone
    text = objective(tmp_path).read_text()
    at = text.index("- id: 1.1-other")
    objective(tmp_path).write_text(text[:at] + text[at:].replace("      count: 3\n", "      count: 3\n      seed: other\n", 1))
    redrawn = run_cli("variants", "--sources", str(sources), "--today", TODAY, cwd=tmp_path)
    assert redrawn.code == 0, redrawn.out
    again = {e["id"]: e for e in json.loads(lock_path.read_text())["questions"]}
    assert again["1.1-ratio"] == after["1.1-ratio"]
    assert [v["seed"] for v in again["1.1-other"]["variants"]] != [v["seed"] for v in after["1.1-other"]["variants"]]


def test_validate_reads_the_lock_and_runs_nothing(tmp_path, run_cli):
    sources = write_varied(tmp_path, SAFE_RATIO)
    never = run_cli("validate", "--sources", str(sources), "--today", TODAY, cwd=tmp_path)
    assert never.code == 1 and findings(never.out, "variants-not-run")[0].startswith(f"sources/demo/1-basics/1.1-sizes.yaml:{line_of(tmp_path, 'id: 1.1-ratio')}:")
    assert run_cli("variants", "--sources", str(sources), "--today", TODAY, cwd=tmp_path).code == 0
    assert run_cli("validate", "--sources", str(sources), "--today", TODAY, "--strict", cwd=tmp_path).code == 1  # placeholders warn, as ever
    ok = run_cli("validate", "--sources", str(sources), "--today", TODAY, cwd=tmp_path)
    assert ok.code == 0 and not [line for line in ok.out.splitlines() if "variant" in line]


PLANTED = {
    "variant-error": ('def generate(seed):\n    if seed % 3 == 0:\n        raise ValueError("no")\n    return {"a": seed % 5 + 1, "answer": seed % 5 + 10}\n', "numeric", ""),
    "variant-timeout": ('def generate(seed):\n    if seed % 4 == 1:\n        while True:\n            pass\n    return {"a": seed % 5 + 1, "answer": seed % 5 + 10}\n', "numeric", "    timeout: 0.5\n"),
    "variant-coincide": ('def generate(seed):\n    a = seed % 6 + 1\n    return {"a": a, "answer": a * 2, "wrong": a + 2, "other": a * 3 + 7}\n', "single", ""),
    "variant-key-extreme": ('def generate(seed):\n    a = seed % 6 + 1\n    return {"a": a, "answer": a * 100 + 50, "wrong": a * 100 + 10, "other": a * 100 + 20}\n', "single", ""),
    "variant-bounds": ('def generate(seed):\n    a = seed % 10 + 1\n    return {"a": a, "answer": a * 13}\n', "numeric", "    bounds: {low: 0, high: 100}\n"),
    "variant-tolerance-overlap": ('def generate(seed):\n    a = seed % 10 + 1\n    return {"a": a, "answer": 10 + a, "flipped": 10 + a + a / 50}\n', "numeric",
                                  "  tolerance: 0.1\n    distractors: [flipped]\n"),
}


def test_planted_faults_are_each_a_finding_at_the_questions_line_with_seeds(tmp_path, run_cli):
    blocks = []
    for n, (source, kind, extra) in enumerate(PLANTED.values()):
        question_extra, variants_extra = "", extra
        if extra.startswith("  tolerance"):
            question_extra, variants_extra = "  tolerance: 0.1\n", "    distractors: [flipped]\n"
        block = varied_code(f"1.1-f{n}", source, kind=kind, extra=question_extra)
        blocks.append(block + variants_extra)
    exam_extra = "examples: {timeout: 20}\n"
    sources = write_varied(tmp_path, *blocks, exam_extra=exam_extra)
    text = objective(tmp_path).read_text().replace('"What is x for {{ a }} apples?"', '"What is x for a basket of {{ a }}?"')
    objective(tmp_path).write_text(text)
    result = run_cli("variants", "--sources", str(sources), "--today", TODAY, "--stress", "12", cwd=tmp_path)
    assert result.code == 1
    checked = 0
    for n, code in enumerate(PLANTED):
        got = [line for line in findings(result.out, code) if f"(1.1-f{n})" in line]
        assert got, f"{code}: {result.out}"
        assert got[0].startswith(f"sources/demo/1-basics/1.1-sizes.yaml:{line_of(tmp_path, f'id: 1.1-f{n}')}:"), got
        assert re.search(r"\(\d+ of 12 seeds: \d+", got[0]), got[0]
        checked += 1
    assert checked == len(PLANTED)
    assert not findings(result.out, "variant-error")[1:], "only the raising code errs"
    # the lock carries them, so validate (which runs nothing) refuses those questions too
    again = run_cli("validate", "--sources", str(sources), "--today", TODAY, cwd=tmp_path)
    assert again.code == 1 and all(findings(again.out, code) for code in PLANTED)


def test_variant_code_gets_the_examples_sandbox_no_network_no_files(tmp_path, run_cli):
    canary = Canary()
    try:
        code = (f'import socket\ndef generate(seed):\n    socket.create_connection(("127.0.0.1", {canary.port}), timeout=1)\n'
                '    return {"a": 1, "answer": 2}\n')
        files = 'def generate(seed):\n    open("/etc/shadow").read()\n    return {"a": 1, "answer": 2}\n'
        sources = write_varied(tmp_path, varied_code("1.1-net", code), varied_code("1.1-files", files))
        result = run_cli("variants", "--sources", str(sources), "--today", TODAY, "--stress", "3", cwd=tmp_path)
    finally:
        canary.close()
    assert canary.accepted == 0
    errors = findings(result.out, "variant-error")
    assert len(errors) == 2 and "(1.1-net)" in errors[0] and "OSError" in errors[0] or "Error" in errors[0]
    assert "(1.1-files)" in errors[1] and ("FileNotFoundError" in errors[1] or "PermissionError" in errors[1])


def test_values_form_zips_and_needs_no_lock(tmp_path, run_cli):
    question = ZIP.replace("bits: [4, 4, 16], gb: [3.5, 6.5, 140]", "bits: [4, 8, 16], gb: [3.5, 13, 140]")  # 13 GB: a number the stem shows
    sources = write_varied(tmp_path, question)
    result = run_cli("validate", "--sources", str(sources), "--today", TODAY, cwd=tmp_path)
    assert result.code == 1 and "the answer 13 is one of the numbers the stem shows" in findings(result.out, "variant-answer-shown")[0]
    turned_down = write_varied(tmp_path, question, exam_extra="checks: {variant-answer-shown: \"off\"}\n")
    assert run_cli("validate", "--sources", str(turned_down), "--today", TODAY, cwd=tmp_path).code == 0
    fixed = write_varied(tmp_path, ZIP)
    result = run_cli("validate", "--sources", str(fixed), "--today", TODAY, cwd=tmp_path)
    assert result.code == 0, result.out
    assert not (sources / "demo" / "variants.lock.json").exists()


def test_schema_errors_for_variants_point_at_their_lines(tmp_path, run_cli):
    both = '''
- id: 1.1-both
  type: numeric
  stem: "{{ a }}?"
  answer: "{{ a }}"
  explanation: Because.
  variants:
    count: 0
    values: {a: [1, 2]}
'''
    bare = '''
- id: 1.1-bare
  type: true_false
  stem: "{{ a }} is even."
  answer: "{{ even }}"
  explanation: Because.
'''
    unknown = '''
- id: 1.1-unknown
  type: numeric
  stem: "Twice {{ a }}?"
  answer: "{{ b }}"
  explanation: Because.
  variants:
    values: {a: [1, 2]}
'''
    sources = write_varied(tmp_path, both, bare, unknown)
    result = run_cli("validate", "--sources", str(sources), "--today", TODAY, cwd=tmp_path)
    assert result.code == 1
    count_line = line_of(tmp_path, "count: 0")
    assert any(line.startswith(f"sources/demo/1-basics/1.1-sizes.yaml:{count_line}:") and "[schema]" in line for line in result.out.splitlines()), result.out
    bare_errors = findings(result.out, "variant-template")
    even, b = line_of(tmp_path, "{{ a }} is even."), line_of(tmp_path, 'answer: "{{ b }}"')
    assert any(f":{even}:" in line and "declares no `variants:`" in line for line in bare_errors), result.out
    assert any(f":{b}:" in line and "{{ b }} names no value" in line for line in bare_errors), result.out


def test_build_reads_the_lock_and_the_bank_holds_template_and_variants(tmp_path, run_cli):
    sources = write_varied(tmp_path, SAFE_RATIO, PLAIN)
    assert run_cli("variants", "--sources", str(sources), "--today", TODAY, cwd=tmp_path).code == 0
    locked = json.loads((sources / "demo" / "variants.lock.json").read_text())["questions"][0]["variants"]
    lock_bytes = (sources / "demo" / "variants.lock.json").read_bytes()
    banks = []
    for out in (tmp_path / "out1", tmp_path / "out2"):
        built = run_cli("build", "--sources", str(sources), "--out", str(out), "--only", "bank", "--today", TODAY, cwd=tmp_path)
        assert built.code == 0, built.out + built.err
        banks.append((out / "demo" / "bank.json").read_bytes())
    assert banks[0] == banks[1]  # two builds from one lock: the same bytes
    assert (sources / "demo" / "variants.lock.json").read_bytes() == lock_bytes  # build drew nothing
    bank = json.loads(banks[0])
    assert tuple(map(int, bank["schema_version"].split("."))) >= (2, 3)  # variants came with 2.3
    q = next(q for q in bank["questions"] if q["id"] == "1.1-ratio")
    assert "{{ n }} weights" in q["template"]["stem"] and q["template"]["variants"]["count"] == 3
    assert [v["index"] for v in q["variants"]] == [1, 2, 3]
    for v, lv in zip(q["variants"], locked, strict=True):
        values = lv["values"]
        assert v["values"] == values and v["seed"] == lv["seed"]
        assert f"{values['n']} weights" in v["stem"] and f"at {values['low']} bits than at {values['high']} bits" in v["stem"]
        assert v["parts"][0]["value"] == values["high"] / values["low"]
    assert q["stem"] == q["variants"][0]["stem"] and q["parts"] == q["variants"][0]["parts"]  # the question itself is variant 1
    other = next(q for q in bank["questions"] if q["id"] != "1.1-ratio")
    assert other["variants"] is None and other["template"] is None


def test_variant_code_gets_the_examples_memory_process_and_time_limits(tmp_path, run_cli):
    """The exam's examples.memory_mb and timeout bound variant code as they bound examples: a balloon gets a
    MemoryError, a fork bomb gets no more processes than the limit, a stuck run is stopped by the wall clock."""
    balloon = 'def generate(seed):\n    block = bytearray(1024 * 1024 * 1024)\n    return {"a": len(block), "answer": 1}\n'
    forks = ('import os\ndef generate(seed):\n    made = 0\n    try:\n        for _ in range(500):\n            if os.fork() == 0:\n'
             '                import time\n                time.sleep(30)\n                os._exit(0)\n            made += 1\n'
             '    except OSError:\n        return {"a": made, "answer": made + 1000}\n    raise RuntimeError(f"forked {made} times")\n')
    stuck = ('import signal, time\ndef generate(seed):\n    signal.signal(signal.SIGALRM, signal.SIG_IGN)\n'
             '    while True:\n        time.sleep(1)\n')
    blocks = [varied_code("1.1-balloon", balloon), varied_code("1.1-forks", forks, count=1),
              varied_code("1.1-stuck", stuck, count=1).replace("    count: 1\n", "    count: 1\n    timeout: 0.5\n")]
    sources = write_varied(tmp_path, *blocks, exam_extra="examples: {timeout: 4, memory_mb: 256}\n")
    result = run_cli("variants", "--sources", str(sources), "--today", TODAY, "--stress", "1", cwd=tmp_path)
    lines = {qid: [line for line in result.out.splitlines() if f"({qid})" in line] for qid in ("1.1-balloon", "1.1-forks", "1.1-stuck")}
    assert "MemoryError" in lines["1.1-balloon"][0] and lines["1.1-balloon"][0].endswith("[variant-error]"), result.out
    assert not lines["1.1-forks"] or "forked 500 times" not in lines["1.1-forks"][0], result.out  # the fork loop ran out of processes
    lock = {e["id"]: e for e in json.loads((sources / "demo" / "variants.lock.json").read_text())["questions"]}
    made = lock["1.1-forks"]["variants"][0]["values"]["a"]
    assert 0 < made < 64  # the sandbox's process limit (Limits.processes), as for examples
    assert lines["1.1-stuck"][0].endswith("[variant-timeout]"), result.out  # the alarm ignored: the wall clock stops it


def test_a_view_of_unchecked_content_leaves_an_undrawn_varied_question_out(tmp_path):
    """The audit derives a view of content it did not check against the locks: a code question never drawn has no
    variant to show, and its template is no question of its type, so it is left out (validate reports it)."""
    import datetime as dt

    from pipeline.check.validate import validate
    from pipeline.derive import build_view

    sources = write_varied(tmp_path, SAFE_RATIO, PLAIN)
    content = validate(sources, dt.date.fromisoformat(TODAY)).exams[0]
    assert [q.id for q in build_view(exam_inputs(content)).questions] == ["1.1-plain"]
