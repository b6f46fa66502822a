"""`stats` on a varied question: responses matched to their variant, figures pooled per question, and a warning when
one variant's facility differs from the others' beyond chance (Pearson's chi-square, variants with 30+ answers).

The fixture exam (tests/kit/variants.py) has three varied questions built from `values:` (nothing runs) and three
plain ones. Answers are written in the long layout by hand, each variant's key read from bank.json (not from the
code under test), with fixed counts right per variant:

- 1.1-bytes, 3 variants: 36 of 40 right, 12 of 40 right, 10 of 20 (too few to test): warned;
- 1.1-even, 2 variants: 24 of 40 right each: not warned;
- 1.1-few, 2 variants: 18 of 20 and 4 of 20, far apart but under 30 answers each: not tested, not warned.

`stats` and `validate` run as real processes.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import chi2_contingency

from pipeline.cli import main
from tests.conftest import ROOT, TODAY
from tests.kit.variants import SINGLE, line_of, write_varied

BYTES = SINGLE.replace("1.1-single", "1.1-bytes")
EVEN = '''
- id: 1.1-even
  type: true_false
  stem: "A {{ format }} weight takes two bytes."
  answer: "{{ two }}"
  explanation: "{{ format }} takes {{ bytes }}."
  key_points: [1.1-size]
  variants:
    count: 2
    combine: zip
    values: {format: [FP16, FP32], two: [true, false], bytes: [two bytes, four bytes]}
'''
FEW = '''
- id: 1.1-few
  type: single
  stem: "Which format takes {{ size }} a weight?"
  options: ["{{ right }}", "{{ wrong }}", "FP64"]
  answer: "{{ right }}"
  explanation: "{{ right }} takes {{ size }}."
  key_points: [1.1-size]
  variants:
    count: 2
    combine: zip
    values: {size: [two bytes, one byte], right: [FP16, int8], wrong: [FP32, BF16]}
'''
PLAIN = ['''
- id: 1.1-plain{k}
  type: true_false
  stem: "Plain statement {k}: a weight of 8 bits takes one byte."
  answer: true
  explanation: Eight bits make a byte.
  key_points: [1.1-size]
'''.replace("{k}", str(k)) for k in range(3)]
# question -> per variant (answers, right); learners 0.. answer each question's variants in turn
PLAN = {"1.1-bytes": [(40, 36), (40, 12), (20, 10)], "1.1-even": [(40, 24), (40, 24)], "1.1-few": [(20, 18), (20, 4)]}
LEARNERS = 100


def _stats(root: Path, *files: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-m", "pipeline", "stats", "--sources", "sources", "--today", TODAY, "--out", "report",
                           *map(str, files)], cwd=root, env=env, capture_output=True, text=True, timeout=600)


def _keys(root: Path) -> dict[str, list[tuple[str, str]]]:
    """Per varied question, each variant's (right option id, a wrong one) as bank.json gives them."""
    # in-process: the keys are the test's own data, not what is under test (stats and validate run as processes)
    assert main(["build", "-q", "--sources", str(root / "sources"), "--out", str(root / "out"), "--only", "bank", "--today", TODAY]) == 0
    bank = {q["id"]: q for q in json.loads((root / "out" / "demo" / "bank.json").read_text())["questions"]}
    out = {}
    for qid in PLAN:
        out[qid] = []
        for v in bank[qid]["variants"]:
            options = v["parts"][0]["options"]
            out[qid].append((next(o["id"] for o in options if o["correct"]), next(o["id"] for o in options if not o["correct"])))
    return out


def _answers(keys) -> list[tuple[str, str, str, int]]:
    """(learner, question_id as written, response, score) of every answer: the plain questions right by a fixed
    pattern, each variant's right answers given by its first learners. Variant 1 of 1.1-bytes is named three ways
    (`<id>`, as the site wrote before variants; `<id>.v1`; QTI's `q_<id>.v1`), all counted as variant 1."""
    rows = []
    for learner in range(LEARNERS):
        for k in range(3):
            right = (learner * 7 + k * 13) % 10 < 6
            rows.append((f"u{learner:03d}", f"1.1-plain{k}", "true" if right else "false", int(right)))
    for qid, plan in PLAN.items():
        learner = 0
        for v, (n, right) in enumerate(plan, start=1):
            good, bad = keys[qid][v - 1]
            for i in range(n):
                name = f"{qid}.v{v}"
                if qid == "1.1-bytes" and v == 1:
                    name = (qid, f"{qid}.v1", f"q_{qid}.v1")[i % 3]
                rows.append((f"u{learner:03d}", name, good if i < right else bad, int(i < right)))
                learner += 1
    return rows


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    root = tmp_path_factory.mktemp("stats-variants")
    write_varied(root, BYTES, EVEN, FEW, *PLAIN)
    answers = _answers(_keys(root))
    path = root / "answers.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        out = csv.writer(handle)
        out.writerow(["learner", "question_id", "response", "score", "time"])
        out.writerows([learner, qid, response, "", ""] for learner, qid, response, _ in answers)  # graded by each variant's key
    done = _stats(root, path)
    assert done.returncode == 0, done.stderr
    data = json.loads((root / "sources" / "demo" / "item-stats.json").read_text())
    report = json.loads((root / "report" / "report.json").read_text())
    return {"root": root, "answers": answers, "data": data, "report": {i["id"]: i for i in report["items"]},
            "md": (root / "report" / "report.md").read_text(), "order": [i["id"] for i in report["items"]]}


def test_each_answer_is_counted_under_its_variant_and_graded_by_its_key(world):
    items = world["data"]["items"]
    for qid, plan in PLAN.items():
        assert [(items[f"{qid}.v{v}"]["n"], round(items[f"{qid}.v{v}"]["facility"] * n)) for v, (n, _) in enumerate(plan, 1)] == plan
        assert {v: (r["n"], r["right"]) for v, r in items[qid]["variants"].items()} == {f"{qid}.v{v}": p for v, p in enumerate(plan, 1)}


def test_pooled_figures_equal_a_hand_computation(world):
    """n and facility over every answer to the question's variants; the point-biserial of an answer's score against its
    learner's total without the question (numpy over the answers as written)."""
    totals: dict[str, int] = {}
    for learner, _, _, score in world["answers"]:
        totals[learner] = totals.get(learner, 0) + score
    for qid, plan in PLAN.items():
        mine = [(learner, score) for learner, name, _, score in world["answers"] if name.removeprefix("q_").split(".v")[0] == qid]
        x = np.array([s for _, s in mine], dtype=float)
        rest = np.array([totals[learner] - s for learner, s in mine], dtype=float)  # one variant a learner here
        pooled = world["data"]["items"][qid]
        assert pooled["n"] == len(mine) == sum(n for n, _ in plan)
        assert pooled["facility"] == pytest.approx(sum(r for _, r in plan) / sum(n for n, _ in plan), abs=1e-4)
        assert pooled["point_biserial"] == pytest.approx(np.corrcoef(x, rest)[0, 1], abs=1e-4)
        assert "options" not in pooled and "discrimination_index" not in pooled  # not pooled: options differ between variants


def test_variants_that_differ_are_warned_with_the_test_named(world):
    test = world["report"]["1.1-bytes"]["homogeneity"]
    table = [(36, 4), (12, 28)]  # v1 and v2 (v3 has 20 answers); by hand: 80 (36 x 28 - 4 x 12)^2 / (40 x 40 x 48 x 32) = 30.0
    chi, p, df, _ = chi2_contingency(table, correction=False)
    assert test["tested"] == ["1.1-bytes.v1", "1.1-bytes.v2"] and test["df"] == df == 1
    assert test["untested"] == [{"variant": "1.1-bytes.v3", "why": "20 answers, under 30"}]
    assert test["chi_square"] == pytest.approx(chi, abs=1e-4) and test["p"] == pytest.approx(p, rel=1e-3) and p < 0.01
    found = [f for f in world["report"]["1.1-bytes"]["findings"] if f["code"] == "item-variants-differ"]
    assert len(found) == 1
    assert "1.1-bytes.v1 0.90 (36 of 40 right); 1.1-bytes.v2 0.30 (12 of 40 right)" in found[0]["message"]
    assert "Pearson's chi-square 30.0, df 1, p = 4.3e-08" in found[0]["message"] and "1.1-bytes.v3 not tested (20 answers, under 30)" in found[0]["message"]
    assert "look at what differs between the variants' values" in found[0]["message"]


def test_equal_variants_and_variants_under_30_answers_are_not_warned(world):
    even, few = world["report"]["1.1-even"], world["report"]["1.1-few"]
    assert even["homogeneity"]["chi_square"] == 0.0 and even["homogeneity"]["p"] == 1.0
    assert few["homogeneity"]["p"] is None and few["homogeneity"]["tested"] == []
    assert [u["why"] for u in few["homogeneity"]["untested"]] == ["20 answers, under 30"] * 2
    assert not any(f["code"] == "item-variants-differ" for item in (even, few) for f in item["findings"])
    assert "**1.1-few** " in world["md"] and "1.1-few.v1 not tested (20 answers, under 30)." in world["md"]


def test_the_report_lists_each_variant_under_its_question_with_its_values(world):
    order = world["order"]
    for qid, plan in PLAN.items():
        at = order.index(qid)
        assert order[at + 1:at + 1 + len(plan)] == [f"{qid}.v{v}" for v in range(1, len(plan) + 1)]
        assert world["report"][f"{qid}.v1"]["question"] == qid
    md = world["md"]
    assert "| ↳ 1.1-bytes.v2 |" in md and "1.1-bytes (pooled)" in md and "## Varied questions (3)" in md
    bits = world["report"]["1.1-bytes.v2"]["values"]["bits"]
    assert f"| 1.1-bytes.v2 | bits = {bits}, " in md


def test_validate_warns_at_the_varied_questions_line(world):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    done = subprocess.run([sys.executable, "-m", "pipeline", "validate", "--sources", "sources", "--today", TODAY], cwd=world["root"],
                          env=env, capture_output=True, text=True, timeout=600)
    lines = [x for x in (done.stdout + done.stderr).splitlines() if "[item-variants-differ]" in x]
    assert len(lines) == 1, done.stdout + done.stderr
    assert f"1.1-sizes.yaml:{line_of(world['root'], '- id: 1.1-bytes')}:" in lines[0]


def test_a_changed_variant_makes_the_pooled_record_stale(world, tmp_path):
    """The pooled record's hash is over every variant's: new values for one variant, and validate applies none of it."""
    import shutil

    root = tmp_path / "copy"
    shutil.copytree(world["root"] / "sources", root / "sources")
    path = root / "sources" / "demo" / "1-basics" / "1.1-sizes.yaml"
    text = path.read_text()
    assert '"sixty-four"' in text
    path.write_text(text.replace('"sixty-four"', '"sixty"'))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    done = subprocess.run([sys.executable, "-m", "pipeline", "validate", "--sources", "sources", "--today", TODAY], cwd=root,
                          env=env, capture_output=True, text=True, timeout=600)
    out = done.stdout + done.stderr
    stale = [x for x in out.splitlines() if "[item-stats-stale]" in x]
    assert len(stale) == 1 and f"1.1-sizes.yaml:{line_of(root, '- id: 1.1-bytes')}:" in stale[0], out
    assert "[item-variants-differ]" not in out


def test_alpha_is_over_questions_a_varied_questions_variants_one_item(world):
    """Each learner met one variant of each varied question (as an LMS draws them): over variants nobody would have
    answered every item; over questions the 40 who answered all six are complete. By hand with numpy."""
    scores: dict[str, dict[str, int]] = {}
    for learner, name, _, score in world["answers"]:
        scores.setdefault(learner, {})[name.removeprefix("q_").split(".v")[0]] = score
    questions = ["1.1-plain0", "1.1-plain1", "1.1-plain2", *PLAN]
    complete = np.array([[row[q] for q in questions] for row in scores.values() if set(row) == set(questions)], dtype=float)
    k = complete.shape[1]
    alpha = k / (k - 1) * (1 - complete.var(axis=0, ddof=1).sum() / complete.sum(axis=1).var(ddof=1))
    data = world["data"]
    assert data["alpha_learners"] == len(complete) == 40
    assert data["alpha"] == pytest.approx(alpha, abs=1e-4)
    rest = np.delete(complete, questions.index("1.1-bytes"), axis=1)
    without = (k - 1) / (k - 2) * (1 - rest.var(axis=0, ddof=1).sum() / rest.sum(axis=1).var(ddof=1))
    assert data["items"]["1.1-bytes"]["alpha_if_deleted"] == pytest.approx(without, abs=1e-4)
    assert data["items"]["1.1-bytes.v2"]["alpha_if_deleted"] == data["items"]["1.1-bytes"]["alpha_if_deleted"]
