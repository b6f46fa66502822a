"""Every error in one pass: the rule checks run on whatever loaded, even beside schema errors, and what
could not be checked is said. Placeholders a skeleton leaves are warnings with a code."""

from __future__ import annotations

from tests.conftest import TODAY

EXAM = """\
id: demo
code: DEMO-1
titel: Demo exam
vendor: Acme
exam_page: https://docs.acme.test/exam
reviewed: 2026-11-01
review_policy: {max_age_days: 180}
sections:
  - {number: 1, title: Basics, weight: 40}
notes: [not, text]
checks: {duplicate-stem: error}
"""

OBJECTIVE = """\
id: "1.1"
title: Basics of things
summary: What things are.
reviewed: 2026-11-01
key_points:
  - id: 1.1-things
    text: Things are made of stuff.
questions:
  - id: 1.1-q1
    type: single
    stem: What are things made of?
    options: [Stuff, Light]
    answer: Stuf
    explantion: The page says so.
  - id: 1.1-q1
    type: true_false
    stem: Things are made of stuff.
    answer: true
    explanation: The page says so.
"""


def test_five_planted_mistakes_in_two_files_give_five_errors_in_one_run(run_cli, tmp_path):
    folder = tmp_path / "sources" / "demo"
    folder.mkdir(parents=True)
    (folder / "exam.yaml").write_text(EXAM, encoding="utf-8")
    (folder / "1.1.yaml").write_text(OBJECTIVE, encoding="utf-8")
    result = run_cli("validate", "--today", TODAY, cwd=tmp_path)
    errors = [line.split(": error: ")[0] + " " + line.rsplit(" ", 1)[1] for line in result.lines if ": error: " in line]
    assert errors == [
        "sources/demo/1.1.yaml:13:13 [question-answer]",  # Stuf is not among the options: checked beside the schema error
        "sources/demo/1.1.yaml:14:5 [schema]",  # explantion: a misspelt key
        "sources/demo/1.1.yaml:15:9 [duplicate-id]",  # the second 1.1-q1
        "sources/demo/exam.yaml:3:1 [schema]",  # titel
        "sources/demo/exam.yaml:10:8 [schema]",  # notes is not text
    ], result.out
    assert "validate: 1 exam(s), 1 objective(s): 5 error(s), 1 warning(s)" in result.err


def test_an_exam_file_beyond_repair_still_has_its_objectives_checked_and_says_what_was_not(run_cli, tmp_path):
    folder = tmp_path / "sources" / "demo"
    folder.mkdir(parents=True)
    (folder / "exam.yaml").write_text(EXAM.split("sections:")[0].replace("titel", "title"), encoding="utf-8")
    (folder / "1.1.yaml").write_text(OBJECTIVE, encoding="utf-8")
    result = run_cli("validate", "--today", TODAY, cwd=tmp_path)
    codes = [line.rsplit(" ", 1)[1] for line in result.lines if ": error: " in line]
    assert codes == ["[question-answer]", "[schema]", "[duplicate-id]", "[schema]"], result.out  # sections missing: the last
    assert "validate: 1 exam(s), 1 objective(s): 4 error(s), 1 warning(s)" in result.err
    assert ("validate: demo: exam.yaml cannot be read as an exam: sections, weights, review dates against its policy, "
            "the citation lock and cross-references were not checked") in result.err


def test_an_item_beyond_repair_is_counted_as_not_checked(run_cli, tmp_path):
    folder = tmp_path / "sources" / "demo"
    folder.mkdir(parents=True)
    (folder / "exam.yaml").write_text(EXAM.replace("titel", "title").replace("notes: [not, text]\n", ""), encoding="utf-8")
    (folder / "1.1.yaml").write_text(OBJECTIVE.replace("    stem: What are things made of?\n", ""), encoding="utf-8")
    result = run_cli("validate", "--today", TODAY, cwd=tmp_path)
    assert "1 item(s) not checked further until their schema errors are fixed" in result.err, result.err


def test_a_skeleton_warns_of_each_placeholder_and_fails_under_strict(run_cli, tmp_path):
    (tmp_path / "sources").mkdir()
    assert run_cli("new", "exam", "demo-ml", "--today", TODAY, cwd=tmp_path).code == 0
    assert run_cli("new", "objective", "demo-ml", "1.1", "Model development", "--today", TODAY, cwd=tmp_path).code == 0
    result = run_cli("validate", "--today", TODAY, cwd=tmp_path)
    placeholders = [line for line in result.lines if line.endswith("[placeholder]")]
    assert result.code == 0 and all(": warning: " in line for line in placeholders)
    fields = [line.split(": warning: ")[1].split(":")[0] for line in placeholders]
    assert fields == ["summary", "key_points[0].text", "key_points[0].citations[0].url", "key_points[0].citations[0].title",
                      "key_points[0].citations[0].quote", "title", "vendor", "exam_page", "sections[0].title", "sections[0].weight"], placeholders
    assert "exam_page: example.com is a placeholder address (reserved for examples, no real page is there); cite the page itself [placeholder]" in result.out
    strict = run_cli("validate", "--strict", "--today", TODAY, cwd=tmp_path)
    assert strict.code == 1 and sum(line.endswith("[placeholder]") and ": error: " in line for line in strict.lines) == len(placeholders)
