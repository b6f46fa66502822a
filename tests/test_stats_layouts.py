"""`stats` reads an export by its columns' roles (issue 35, item 8): Moodle's Responses report headed the way
older versions and language packs write it ("Surname", "Status", "Started") gives the same statistics as
Moodle 4's ("Last name", "State", "Started on"); a header that is almost a layout names what it misses and
the closest names it has; the report explains each statistic where it first appears, links every figure,
and gives advice that fits a true/false item. Every run is a real process."""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.kit import stats as kit

MOODLE_4 = {"Last name": "Last name", "State": "State", "Started on": "Started on"}
OLDER = {"Last name": "Surname", "State": "Status", "Started on": "Started"}
MIXED = {"Last name": "Surname", "State": "State", "Started on": "Started on"}


def stats(root: Path, *files: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-m", "pipeline", "stats", "--sources", "sources", "--today", "2026-11-29", "--out", "report",
                           *map(str, files)], cwd=root, env=env, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def responses(tmp_path_factory) -> tuple[Path, Path]:
    """The fixture exam and one Moodle 4 Responses download of its answers (written by the kit, as Moodle writes it)."""
    root = tmp_path_factory.mktemp("moodle")
    sources = kit.write_exam(root)
    view = kit.view_of(sources)
    return root, kit.write_moodle_responses(root / "responses.csv", kit.generate(view), view)


def headed(download: Path, names: dict[str, str], target: Path) -> Path:
    """The download with its header's user columns renamed (the rows are the same bytes)."""
    rows = list(csv.reader(download.open(encoding="utf-8-sig", newline="")))
    rows[0] = [names.get(h, h) for h in rows[0]]
    with target.open("w", encoding="utf-8-sig", newline="") as handle:
        csv.writer(handle).writerows(rows)
    return target


def statistics_of(responses: tuple[Path, Path], names: dict[str, str], tmp_path: Path, label: str) -> dict:
    root, download = responses
    work = tmp_path / label
    shutil.copytree(root / "sources", work / "sources")
    done = stats(work, headed(download, names, work / "responses.csv"))
    assert done.returncode == 0, done.stdout + done.stderr
    data = json.loads((work / "sources" / "stats-demo" / "item-stats.json").read_text(encoding="utf-8"))
    return data


def test_older_and_newer_moodle_headers_give_the_same_statistics(responses, tmp_path):
    newer = statistics_of(responses, MOODLE_4, tmp_path, "newer")
    older = statistics_of(responses, OLDER, tmp_path, "older")
    mixed = statistics_of(responses, MIXED, tmp_path, "mixed")
    assert len(newer["items"]) == kit.ITEMS and newer["learners"] == kit.LEARNERS  # every item, every learner, first attempts
    assert newer["items"] == older["items"] == mixed["items"]
    assert (newer["learners"], newer["answers"], newer["alpha"]) == (older["learners"], older["answers"], older["alpha"])


def test_a_header_that_nearly_is_moodles_names_the_missing_column_and_the_closest(responses, tmp_path):
    root, download = responses
    work = tmp_path / "near"
    shutil.copytree(root / "sources", work / "sources")
    headed(download, {"Last name": "Surname", "State": "Attempt state"}, work / "responses.csv")
    done = stats(work, Path("responses.csv"))
    assert done.returncode == 1
    [line] = [line for line in (done.stdout + done.stderr).splitlines() if ": error: " in line]
    assert line == ("responses.csv: row 1: error: the header reads like Moodle's quiz Responses report but has no column for the attempt's "
                    "state (expected 'State' or 'Status'; closest here: 'Attempt state' (column 4)); rename the column, or download the "
                    "report again with that column shown"), line
    assert not (work / "sources" / "stats-demo" / "item-stats.json").exists()


def test_a_header_of_no_layout_at_all_is_still_the_list_of_layouts(tmp_path):
    sources = kit.write_exam(tmp_path)
    assert sources.is_dir()
    (tmp_path / "other.csv").write_text("colour,size\nred,3\n", encoding="utf-8")
    done = stats(tmp_path, tmp_path / "other.csv")
    assert done.returncode == 1 and "header 'colour', 'size' is not one this command reads; expected one of:" in done.stdout + done.stderr


def test_the_report_explains_each_statistic_and_links_every_figure(responses, tmp_path):
    root, download = responses
    work = tmp_path / "report"
    shutil.copytree(root / "sources", work / "sources")
    assert stats(work, headed(download, MOODLE_4, work / "responses.csv")).returncode == 0
    report = (work / "report" / "report.md").read_text(encoding="utf-8")
    for name in ("facility", "point-biserial", "D (27%)", "alpha without"):
        explained = re.search(rf"^- \*\*{re.escape(name)}\*\*: (.+)$", report, re.M)
        assert explained and len(explained[1].split()) >= 12, name  # a sentence, not a label
        assert report.index(explained[0]) < report.index(f"| {name} |") if f"| {name} |" in report else True
    assert "Cronbach's alpha" in report and "alpha is how consistently the items measure one thing" in report
    figures = sorted(p.name for p in (work / "report" / "figures").glob("*.png"))
    assert len(figures) > kit.ITEMS // 2  # one per choice item, and the scatter
    linked = set(re.findall(r"\]\(figures/([^)]+\.png)\)", report))
    assert linked == set(figures), set(figures) - linked  # every figure written is linked, flagged item or not


TF_EXAM = kit.EXAM.replace("id: stats-demo", "id: tf-demo")  # section 6
TF_OBJECTIVE = """id: "6.1"
title: Basics
summary: Basic facts.
reviewed: 2026-11-01
key_points:
  - id: 6.1-water
    text: Water is wet.
    citations:
      - {url: "https://example.org/water", title: Water, quote: "Water is wet."}
questions:
  - {id: 6.1-tf, type: true_false, stem: Water is wet., answer: true, explanation: It is.}
  - {id: 6.1-a, type: single, stem: "Which is a colour?", options: [Red, Loud, Heavy, Late], answer: Red, explanation: It is.}
  - {id: 6.1-b, type: single, stem: "Which is a number?", options: [Seven, Blue, Soft, Early], answer: Seven, explanation: It is.}
"""


def test_a_true_false_item_gets_advice_that_fits_it(tmp_path):
    folder = tmp_path / "sources" / "tf-demo"
    folder.mkdir(parents=True)
    (folder / "exam.yaml").write_text(TF_EXAM, encoding="utf-8")
    (folder / "6.1.yaml").write_text(TF_OBJECTIVE, encoding="utf-8")
    wrong = {"6.1-a": ["b", "c", "d"], "6.1-b": ["b", "c", "d"]}
    rows = [["learner", "question_id", "response", "score", "time"]]
    for i in range(120):  # everyone says "true"; the other two items split the learners
        rows.append([f"u{i:03d}", "6.1-tf", "true", "", ""])
        for qid in ("6.1-a", "6.1-b"):
            rows.append([f"u{i:03d}", qid, "a" if (i * 7 + len(qid)) % 3 else wrong[qid][i % 3], "", ""])
    with (tmp_path / "answers.csv").open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)
    done = stats(tmp_path, tmp_path / "answers.csv")
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads((tmp_path / "report" / "report.json").read_text(encoding="utf-8"))
    found = {f["code"]: f["message"] for item in report["items"] if item["id"] == "6.1-tf" for f in item["findings"]}
    assert {"item-too-easy", "item-dead-distractor"} <= set(found), found
    assert "a true/false item's only wrong answer cannot be replaced: rewrite the statement" in found["item-dead-distractor"]
    assert "replace it with a wrong answer" not in found["item-dead-distractor"]
    assert "state a misconception learners hold" in found["item-too-easy"] and "wrong options more plausible" not in found["item-too-easy"]
