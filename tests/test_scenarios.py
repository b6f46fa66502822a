"""Each scenario fixture gives exactly the lines an author sees (run from the sources' parent folder)."""

from __future__ import annotations

import pytest

from tests.conftest import TODAY


def validate(run_cli, sources, *extra):
    return run_cli("validate", "--sources", "sources", "--today", TODAY, *extra, cwd=sources.parent)


def test_valid_fixture_has_no_problem(run_cli, make_sources):
    result = validate(run_cli, make_sources("valid"))
    assert (result.code, result.lines) == (0, [])
    assert "0 error(s), 0 warning(s)" in result.err


@pytest.mark.parametrize(
    ("scenario", "expected"),
    [
        ("misspelt_key", "sources/demo/misspelt_key.yaml:2:1: error: titel: unknown key 'titel'; did you mean 'title'? "
                         "(expected one of: check_yourself, examples, id, key_points, labs, questions, reviewed, see, summary, terms, title) [schema]"),
        ("duplicate_question_id", "sources/demo/valid.yaml:15:9: error: questions[0].id: question id is already used at "
                                  "sources/demo/duplicate_question_id.yaml:11 [duplicate-id]"),
        ("review_future", "sources/demo/review_future.yaml:4:11: error: reviewed: 2026-12-25 is after today (2026-11-29); "
                          "expected the date the content was last checked [review-future]"),
        ("impossible_date", "sources/demo/impossible_date.yaml:4:11: error: reviewed: '2026-02-30' is not a real calendar date (expected YYYY-MM-DD) [schema]"),
        ("javascript_url", "sources/demo/javascript_url.yaml:9:14: error: key_points[0].citations[0].url: "
                           "must be an absolute http:// or https:// address, got 'javascript:alert(1)' [schema]"),
        ("empty_quote", "sources/demo/empty_quote.yaml:11:16: error: key_points[0].citations[0].quote: must not be empty [schema]"),
        ("answer_not_in_options", "sources/demo/answer_not_in_options.yaml:15:13: error: questions[0].answer: "
                                  "'Blue' is not one of the options ('Green'; 'Red') [question-answer]"),
        ("broken_yaml", "sources/demo/broken_yaml.yaml:3:10: error: invalid YAML: the [ opened here is never closed; "
                        "close it with ] at the end of line 3 [yaml]"),
        ("malformed_cloze", "sources/demo/malformed_cloze.yaml:7:11: error: key_points[0].text: unbalanced or malformed cloze mark; "
                            "expected {{c1::phrase}} or {{c1::phrase::hint}} [cloze]"),
        ("unknown_section", "sources/demo/unknown_section.yaml:1:5: error: id: objective 7.1 belongs to section 7, "
                            "which exam.yaml does not declare (declared: 1, 2) [section-unknown]"),
        ("duplicate_key", "sources/demo/duplicate_key.yaml:4:1: error: title: key given twice; keep one [yaml]"),
        ("not_utf8", "sources/demo/not_utf8.yaml:2:18: error: not UTF-8 text (byte 0xe9); save the file as UTF-8 [yaml]"),
    ],
)
def test_error_scenario(run_cli, make_sources, scenario, expected):
    result = validate(run_cli, make_sources("valid", scenario))
    assert result.code == 1
    assert expected in result.lines, "\n".join(result.lines)


def test_broken_yaml_does_not_hide_other_files(run_cli, make_sources):
    result = validate(run_cli, make_sources("valid", "broken_yaml", "javascript_url", "answer_not_in_options"))
    assert result.code == 1
    files = sorted({line.split(":")[0] for line in result.lines})
    assert files == ["sources/demo/answer_not_in_options.yaml", "sources/demo/broken_yaml.yaml", "sources/demo/javascript_url.yaml"]


def test_question_shapes(run_cli, make_sources):
    result = validate(run_cli, make_sources("valid", "question_shapes"))
    f = "sources/demo/question_shapes.yaml"
    assert result.lines == [
        f"{f}:14:5: error: questions[0].options: a true_false question takes no options; remove them [question-options]",
        f"{f}:20:14: error: questions[1].options: a single question needs 2 to 6 options, got 1 [question-options]",
        f"{f}:26:21: error: questions[2].options[1]: option 'same' is given twice; options must differ [question-options]",
        f"{f}:33:13: error: questions[3].answer: a multiple question needs at least one correct option [question-answer]",
        f"{f}:38:13: error: questions[4].answer: unexpected value 'yes'; expected true when the statement is true, false "
        "when it is false (not quoted: \"yes\" is text); in a varied question `{{ name }}` [schema]",
        f"{f}:45:18: error: questions[5].key_points[0]: no key point has the id '1.2-nowhere' [question-ref]",
    ]
    assert result.code == 1


def test_stale_review_warns_and_strict_fails(run_cli, make_sources):
    sources = make_sources("valid", "review_stale")
    expected = ("sources/demo/review_stale.yaml:4:11: {}: reviewed: last reviewed 2024-11-01, 758 days ago; the review policy "
                "allows 180 days: check the content again and update the date [review-stale]")
    relaxed = validate(run_cli, sources)
    assert (relaxed.code, relaxed.lines) == (0, [expected.format("warning")])
    strict = validate(run_cli, sources, "--strict")
    assert (strict.code, strict.lines) == (1, [expected.format("error")])


@pytest.mark.parametrize(
    ("scenario", "expected"),
    [
        ("uncited_key_point", "sources/demo/uncited_key_point.yaml:6:5: warning: key_points[0]: key point '1.2-point' has no citation; "
                              "add a quote from the page it comes from [uncited-key-point]"),
        ("duplicate_stem", "sources/demo/valid.yaml:17:11: warning: questions[0].stem: the same stem is already used at "
                           "sources/demo/duplicate_stem.yaml:13 [duplicate-stem]"),
    ],
)
def test_warning_scenario(run_cli, make_sources, scenario, expected):
    result = validate(run_cli, make_sources("valid", scenario))
    assert (result.code, result.lines) == (0, [expected])


def test_section_weights_over_100(run_cli, make_sources):
    result = validate(run_cli, make_sources("valid", exam="weights_over_100"))
    assert result.lines == ["sources/demo/exam.yaml:8:1: error: sections: weights add up to 110; expected at most 100 (percent of the exam) [section-weights]"]
    assert result.code == 1


def test_missing_sources_folder_is_one_sentence(run_cli, tmp_path):
    result = run_cli("validate", "--sources", str(tmp_path / "nowhere"))
    assert result.code == 2  # usage: the folder named is not there
    assert result.err.strip() == f"error: sources folder '{tmp_path / 'nowhere'}' does not exist (run from the project root or pass --sources DIR)"


def test_bad_today_is_one_sentence(run_cli, make_sources):
    result = validate(run_cli, make_sources("valid"), "--today", "2026-13-01")
    assert (result.code, result.err.strip()) == (2, "error: --today '2026-13-01' is not a real date; expected YYYY-MM-DD")


def test_today_from_source_date_epoch(run_cli, make_sources, monkeypatch):
    sources = make_sources("valid", "review_future")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1798156800")  # 2026-12-25 00:00 UTC: the review is no longer in the future
    result = run_cli("validate", "--sources", "sources", cwd=sources.parent)
    assert (result.code, result.lines) == (0, [])


@pytest.mark.parametrize(
    ("scenario", "only_line"),
    [
        # the "did you mean" stands for the required key it misspells: one mistake, one line
        ("misspelt_key", "sources/demo/misspelt_key.yaml:2:1: error: titel: unknown key 'titel'; did you mean 'title'? "
                         "(expected one of: check_yourself, examples, id, key_points, labs, questions, reviewed, see, summary, terms, title) [schema]"),
        # a key point that failed the schema is still known by its id: no cascade of "no key point has the id"
        ("bad_key_point_referenced", "sources/demo/bad_key_point_referenced.yaml:9:15: error: key_points[0].citations[0].url: "
                                     "must be an absolute http:// or https:// address, got 'ftp://example.com/a' [schema]"),
    ],
)
def test_one_mistake_gives_one_line(run_cli, make_sources, scenario, only_line):
    result = validate(run_cli, make_sources("valid", scenario))
    assert (result.code, result.lines) == (1, [only_line])
