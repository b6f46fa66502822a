"""`stats` end to end: answers drawn from a known 2PL model, written in every supported export, read back.

The fixture exam has 36 single-choice items and one essay; 320 learners answer (tests/kit/stats.py). For
every format the computed facility and point-biserial must rank the items as the generating model does
(Spearman >= 0.9), the mis-keyed item must come out negative with the option the strongest learners chose,
and the dead distractor must be found; `validate` must then warn at the right lines.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import spearmanr

from pipeline.cli import main
from tests.kit import stats as kit

PER_LEARNER = ("long", "moodle-responses", "canvas-students")
AGGREGATE = ("moodle-statistics", "canvas-items")
WRITERS = {"long": kit.write_long, "moodle-responses": kit.write_moodle_responses, "moodle-statistics": kit.write_moodle_statistics,
           "canvas-items": kit.write_canvas_items, "canvas-students": kit.write_canvas_students}


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """The fixture exam, the model, one file per format, and `stats` run on each (item-stats.json kept per format)."""
    root = tmp_path_factory.mktemp("stats")
    sources = kit.write_exam(root)
    view = kit.view_of(sources)
    model = kit.generate(view)
    files = {}
    for name, writer in WRITERS.items():
        extra = {"extra_rows": [["u-x", "9.9-q1", "a", "", ""], ["u-y", kit.qid(0), "", "", ""],  # unknown question; a blank answer
                                ["u0000", kit.qid(0), "a", "", "2026-12-01T09:00:00Z"]]} if name == "long" else {}  # a later attempt
        files[name] = writer(root / f"{name}.csv", model, view, **extra)
    results = {}
    for name, path in files.items():
        code, err = _stats(root, path, out=root / f"report-{name}")
        assert code == 0, err
        results[name] = (json.loads((sources / "stats-demo" / "item-stats.json").read_text()), err)
    return {"root": root, "sources": sources, "view": view, "model": model, "files": files, "results": results,
            "implied": kit.implied_point_biserials(model, view), "expected": model.expected_facility()}


def _stats(root: Path, *files: Path, out: Path | None = None, capsys=None) -> tuple[int, str]:
    import contextlib
    import io

    err = io.StringIO()
    args = ["stats", "--sources", str(root / "sources"), "--today", "2026-11-29", *([f"--out={out}"] if out else []), *map(str, files)]
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(args)
    return code, err.getvalue()


def _column(data: dict, ids: list[str], field: str) -> list[float]:
    values = [data["items"][i].get(field) for i in ids]
    assert all(v is not None for v in values), field
    return values


@pytest.mark.parametrize("fmt", PER_LEARNER + AGGREGATE)
def test_facility_and_point_biserial_rank_items_as_the_model_does(world, fmt):
    data, _ = world["results"][fmt]
    ids = world["model"].ids
    assert len(ids) >= 30 and len(world["model"].chosen) >= 300
    facility = spearmanr(_column(data, ids, "facility"), world["expected"]).statistic
    biserial = spearmanr(_column(data, ids, "point_biserial"), world["implied"]).statistic
    assert facility >= 0.9, facility
    assert biserial >= 0.9, biserial


@pytest.mark.parametrize("fmt", PER_LEARNER)
def test_the_miskeyed_item_is_negative_and_names_what_the_strongest_chose(world, fmt):
    item = world["results"][fmt][0]["items"][kit.MISKEYED]
    assert item["point_biserial"] < 0
    assert item["strongest_choice"] == kit.TRUE_OPTION
    others = [v["point_biserial"] for k, v in world["results"][fmt][0]["items"].items() if k != kit.MISKEYED and k != kit.ESSAY]
    assert min(others) > 0


@pytest.mark.parametrize("fmt", AGGREGATE)
def test_platform_statistics_show_the_miskeyed_item_negative(world, fmt):
    assert world["results"][fmt][0]["items"][kit.MISKEYED]["point_biserial"] < 0


@pytest.mark.parametrize("fmt", ("long", "moodle-responses", "canvas-students", "moodle-statistics"))
def test_the_dead_distractor_is_never_chosen(world, fmt):
    options = world["results"][fmt][0]["items"][kit.DEAD]["options"]
    assert options["d"]["count"] == 0 and not options["d"]["correct"]
    assert all(o["count"] > 0 for k, o in options.items() if k != "d")


def test_first_attempts_only_and_every_learner_counted(world):
    long, moodle, canvas = (world["results"][f][0] for f in PER_LEARNER)
    assert moodle["learners"] == canvas["learners"] == kit.LEARNERS
    assert moodle["later_attempts"] == 25 * kit.ITEMS and canvas["later_attempts"] == 20 * kit.ITEMS  # the writers' second attempts
    assert long["later_attempts"] == 1 and long["learners"] == kit.LEARNERS + 1  # u0000's second try set aside; u-y's blank counted
    assert long["items"][kit.qid(0)]["n"] == kit.LEARNERS + 1
    for data in (moodle, canvas):  # counting the all-right second attempts would have lifted the facility
        assert data["items"][kit.qid(1)]["facility"] == pytest.approx(long["items"][kit.qid(1)]["facility"])


def test_unmatched_rows_are_reported_with_the_reason(world):
    assert "question_id '9.9-q1' is not a question of this exam" in world["results"]["long"][1]
    assert "attempt not finished (State: In progress)" in world["results"]["moodle-responses"][1]
    assert f"{kit.ESSAY} is an essay: a Responses report gives no mark" in world["results"]["moodle-responses"][1]
    assert "Canvas question 8999" in world["results"]["canvas-students"][1]
    assert "Old question: no longer in the bank" in world["results"]["moodle-statistics"][1]
    assert "Question Id 9999" in world["results"]["canvas-items"][1]


def test_the_long_format_keeps_quoted_commas_and_line_breaks(world):
    essay = world["results"]["long"][0]["items"][kit.ESSAY]
    assert essay["n"] == kit.LEARNERS and essay["facility"] == pytest.approx(0.5)


def test_a_2pl_fit_recovers_the_discriminations(world):
    data = world["results"]["long"][0]
    ids = [i for i in world["model"].ids if i != kit.MISKEYED]
    fitted = [data["items"][i]["irt"]["a"] for i in ids]
    true = [world["model"].a[world["model"].ids.index(i)] for i in ids]
    assert spearmanr(fitted, true).statistic >= 0.8


def _line_of(path: Path, pattern: str, after: str | None = None) -> int:
    lines = path.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if after in line) if after else 0
    return next(i for i, line in enumerate(lines) if i >= start and re.search(pattern, line)) + 1


def _validate(root: Path) -> tuple[int, list[str]]:
    import contextlib
    import io

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["validate", "--sources", str(root / "sources"), "--today", "2026-11-29"])
    return code, out.getvalue().splitlines() + err.getvalue().splitlines()


@pytest.fixture
def judged(world, tmp_path):
    """A copy of the exam with the long format's item-stats.json, as an author would have it."""
    import shutil

    shutil.copytree(world["root"] / "sources", tmp_path / "sources")
    (tmp_path / "sources" / "stats-demo" / "item-stats.json").write_text(json.dumps(world["results"]["long"][0]))
    return tmp_path


def test_validate_warns_at_the_question_and_option_lines(judged, world):
    code, lines = _validate(judged)
    assert code == 0
    file = judged / "sources" / "stats-demo" / "6-performance" / "6.2-part.yaml"
    q_line = _line_of(file, rf"- id: {re.escape(kit.MISKEYED)}$")
    keyed = next(q for q in world["view"].questions if q.id == kit.MISKEYED)
    truth = next(o for o in kit.options(keyed) if o.id == kit.TRUE_OPTION)
    negative = [x for x in lines if "[item-negative-discrimination]" in x]
    assert len(negative) == 1
    assert negative[0].startswith(f"sources/stats-demo/6-performance/6.2-part.yaml:{q_line}:5: warning: ") or f"6.2-part.yaml:{q_line}:5:" in negative[0]
    assert f"chose {truth.letter} ({truth.text_md!r}) most" in negative[0]
    dead_file = judged / "sources" / "stats-demo" / "6-performance" / "6.3-part.yaml"
    d_line = _line_of(dead_file, r"distractor three of 36", after=f"- id: {kit.DEAD}")
    dead = [x for x in lines if "[item-dead-distractor]" in x and "distractor three of 36" in x]
    assert len(dead) == 1 and f"6.3-part.yaml:{d_line}:9:" in dead[0], dead


def test_an_edited_item_is_stale_not_flagged(judged):
    file = judged / "sources" / "stats-demo" / "6-performance" / "6.2-part.yaml"
    file.write_text(file.read_text().replace("Item 19: which choice", "Item 19, reworded: which choice"))
    _, lines = _validate(judged)
    assert any("[item-stats-stale]" in x and "6.2-part.yaml" in x for x in lines)
    assert not any("[item-negative-discrimination]" in x for x in lines)


def test_thresholds_under_checks(judged):
    exam = judged / "sources" / "stats-demo" / "exam.yaml"
    base = exam.read_text()
    exam.write_text(base + "checks:\n  item-too-easy: {threshold: 0.6}\n  item-dead-distractor: \"off\"\n")
    _, lines = _validate(judged)
    easy = [x for x in lines if "[item-too-easy]" in x]
    assert len(easy) >= 5 and all("above 0.6" in x for x in easy)
    assert not any("[item-dead-distractor]" in x for x in lines)
    exam.write_text(base + "checks:\n  item-too-hard: {threshold: 1.5}\n  duplicate-stem: {threshold: 0.2}\n")
    code, lines = _validate(judged)
    assert code == 1
    assert any(re.search(r"exam\.yaml:\d+:3: error: checks\.item-too-hard\.threshold: 1\.5 is out of range", x) for x in lines), lines
    assert any("checks.duplicate-stem: this check takes a severity only" in x for x in lines)


@pytest.mark.parametrize("text, reason", [
    ("{not json", "the item statistics cannot be read"),
    ('{"a": ' * 20 + "1" + "}" * 20, ":1:49: error: the item statistics cannot be read (nested more than 8 levels deep"),
    ('{"format": 1}', "item-stats.json:1:1: error: the item statistics cannot be read (about: Field required"),
])
def test_a_broken_item_stats_file_is_exit_2(judged, text, reason):
    (judged / "sources" / "stats-demo" / "item-stats.json").write_text(text)
    code, lines = _validate(judged)
    assert code == 2
    assert any(reason in x and "item-stats.json" in x and "restore the file from git" in x for x in lines), lines


def test_the_report_puts_the_worst_first_and_links_figures_that_exist(world):
    folder = world["root"] / "report-long"
    text = (folder / "report.md").read_text()
    rows = [line for line in text.splitlines() if re.match(r"^\| \d+ \|", line)]
    assert rows[0].startswith(f"| 1 | {kit.MISKEYED} |")
    links = re.findall(r"\]\((figures/[^)]+)\)", text)
    assert "figures/facility-discrimination.png" in links and f"figures/options-{kit.MISKEYED}.png" in links
    for link in links:
        assert (folder / link).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    report = json.loads((folder / "report.json").read_text())
    assert report["items"][0]["id"] == kit.MISKEYED and report["items"][0]["findings"][0]["code"] == "item-negative-discrimination"


def test_the_same_answers_give_the_same_bytes(world, tmp_path):
    import shutil

    shutil.copytree(world["root"] / "sources", tmp_path / "sources")
    outputs = []
    for n in range(2):
        assert _stats(tmp_path, world["files"]["long"], out=tmp_path / f"r{n}")[0] == 0
        outputs.append(((tmp_path / "sources" / "stats-demo" / "item-stats.json").read_bytes(),
                        (tmp_path / f"r{n}" / "figures" / "facility-discrimination.png").read_bytes()))
    assert outputs[0] == outputs[1]
    assert np.isfinite(json.loads(outputs[0][0])["alpha"])
