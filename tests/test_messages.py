"""Messages for humans: each mistake an author makes is reported at its line and column, with the fix,
in the author's terms (YAML's words, never Python's)."""

from __future__ import annotations

import re

import pytest

from tests.conftest import FIXTURES, TODAY, add_exam

VALID = (FIXTURES / "objectives" / "valid.yaml").read_text(encoding="utf-8")


def objective_with(make_sources, old: str, new: str, *, count: int = 1):
    """The valid objective fixture with `old` replaced by `new` (it must be there), as sources/demo/o.yaml."""
    assert old in VALID, old
    sources = make_sources("valid")
    (sources / "demo" / "valid.yaml").write_text(VALID.replace(old, new, count), encoding="utf-8")
    return sources


def errors(run_cli, sources, *extra) -> list[str]:
    result = run_cli("validate", "--sources", "sources", "--today", TODAY, *extra, cwd=sources.parent)
    return [line for line in result.lines if ": error: " in line]


F = "sources/demo/valid.yaml"


@pytest.mark.parametrize(("old", "new", "expected"), [
    # a tab in the indentation: at the tab
    ("  - id: 1.1-things", "\t- id: 1.1-things",
     f"{F}:6:1: error: invalid YAML: a tab character; YAML indents with spaces only: replace the tab with spaces [yaml]"),
    # a quote never closed: where it opened, not where the file ends
    ("title: Basics of things", 'title: "Basics of things',
     f"{F}:2:8: error: invalid YAML: the \" opened here is never closed; close it with \" at the end of the value [yaml]"),
    # an unquoted cloze mark at the start of a value: the quoted line to write
    ("text: Things are {{c1::made of stuff}}.", "text: {{c1::Things}} are made of stuff.",
     f"{F}:7:11: error: invalid YAML: a value starting with {{{{ is read as a YAML mapping, not text; quote the text: "
     'text: "{{c1::Things}} are made of stuff." [yaml]'),
    ("text: Things are {{c1::made of stuff}}.", "text: {{c1::Things are made of stuff}}",
     f"{F}:7:11: error: invalid YAML: a value starting with {{{{ is read as a YAML mapping, not text; quote the text: "
     'text: "{{c1::Things are made of stuff}}" [yaml]'),
    # ': ' inside an unquoted value
    ("title: Basics of things", "title: Basics: things",
     f"{F}:2:14: error: invalid YAML: mapping values are not allowed here; the value holds ': ', which YAML reads as a new key: "
     'quote the value ("...") [yaml]'),
    # a line indented deeper than its neighbours
    ("summary: What things are.", "  summary: What things are.",
     f"{F}:3:3: error: invalid YAML: this key is indented 2 spaces, more than the key above it (0, line 2), which already "
     "has its value; line it up with that key (0 spaces) [yaml]"),
])
def test_yaml_syntax_errors_point_at_the_mistake_with_a_hint(run_cli, make_sources, old, new, expected):
    assert errors(run_cli, objective_with(make_sources, old, new)) == [expected]


def test_a_quote_closed_lines_later_is_reported_where_it_opened(run_cli, make_sources):
    sources = make_sources("valid")
    text = VALID.replace("stem: What are things made of?", 'stem: "What are things made of?').replace("stem: Which are things?", 'stem: "Which are things?"')
    (sources / "demo" / "valid.yaml").write_text(text, encoding="utf-8")
    assert errors(run_cli, sources) == [
        f"{F}:17:11: error: invalid YAML: the \" opened here is not closed on its line; it runs on to line 23, taking the keys "
        "between as text; close it with \" at the end of this value [yaml]"]


def test_an_id_read_as_a_number_shows_the_quoted_fix(run_cli, make_sources):
    sources = objective_with(make_sources, 'id: "1.1"', "id: 1.10")
    assert errors(run_cli, sources) == [
        f'{F}:1:5: error: id: expected text, but 1.10 reads as the number 1.1; quote it to keep it as written: id: "1.10" [schema]']


def test_a_number_in_a_list_of_texts_shows_the_quoted_fix(run_cli, make_sources):
    sources = objective_with(make_sources, "options: [Stuff, Light]", "options: [Stuff, 4096]")
    assert f'{F}:18:22: error: questions[0].options[1]: expected text, got the number 4096; quote it: "4096" [schema]' in errors(run_cli, sources)


def test_misspelt_key_point_reference_gets_did_you_mean(run_cli, make_sources):
    sources = objective_with(make_sources, "    explanation: The page says so.\n", "    explanation: The page says so.\n    key_points: [1.1-thing]\n")
    assert errors(run_cli, sources) == [f"{F}:21:18: error: questions[0].key_points[0]: no key point has the id '1.1-thing'; did you mean '1.1-things'? [question-ref]"]


def test_misspelt_question_type_gets_did_you_mean(run_cli, make_sources):
    sources = objective_with(make_sources, "type: single", "type: singel")
    assert errors(run_cli, sources) == [f"{F}:16:11: error: questions[0].type: 'singel' is not allowed; did you mean 'single'? "
                                        "(expected one of: single, multiple, true_false, short_answer, matching, ordering, numeric, cloze) [schema]"]


def test_misspelt_answer_gets_did_you_mean(run_cli, make_sources):
    sources = objective_with(make_sources, "answer: Stuff", "answer: Stuf")
    assert errors(run_cli, sources) == [f"{F}:19:13: error: questions[0].answer: 'Stuf' is not one of the options; did you mean 'Stuff'? "
                                        "('Stuff'; 'Light') [question-answer]"]


@pytest.mark.parametrize(("old", "new", "expected"), [
    ("summary: What things are.", "summary: {a: b}", "summary: expected text, got a mapping (key: value)"),
    ("summary: What things are.", "summary: true", "summary: expected text, got true"),
    ("summary: What things are.", "summary:", "summary: expected text, got nothing (an empty value)"),
    ("terms:\n  - {term: Thing, definition: An object made of stuff.}", "terms: {term: Thing}", "terms: expected a list, got a mapping (key: value)"),
    ("    answer: true\n", "    answer: [true]\n", "questions[2].answer: expected true or false, got a list"),
])
def test_messages_use_yaml_words_not_python_type_names(run_cli, make_sources, old, new, expected):
    found = errors(run_cli, objective_with(make_sources, old, new))
    assert any(expected in line for line in found), found
    python_words = re.compile(r"\b(dict|list\[|NoneType|None\b|True\b|False\b|str\b|int\b|float\b|bool\b)")
    assert not [line for line in found if python_words.search(line)], found


def test_cross_reference_to_another_exams_objective(run_cli, make_sources):
    sources = objective_with(make_sources, "    text: Things are {{c1::made of stuff}}.\n",
                             "    text: Things are {{c1::made of stuff}}.\n    see: {exam: other, objective: \"1.1\"}\n")
    add_exam(sources, "other", "valid")
    assert errors(run_cli, sources) == []
    (sources / "demo" / "valid.yaml").write_text(VALID.replace("    text: Things are {{c1::made of stuff}}.\n",
                                                 "    text: Things are {{c1::made of stuff}}.\n    see: {exam: other, objective: \"1.2\"}\n"))
    assert errors(run_cli, sources) == [f'{F}:8:35: error: key_points[0].see.objective: exam \'other\' has no objective "1.2"; '
                                        'did you mean "1.1" (Basics of things)? (objectives: 1.1) [see-unknown]']


def test_cross_reference_to_an_absent_exam_warns(run_cli, make_sources):
    sources = objective_with(make_sources, 'reviewed: 2026-11-01\n', 'reviewed: 2026-11-01\nsee: {exam: elsewhere, objective: "3.2"}\n')
    result = run_cli("validate", "--sources", "sources", "--today", TODAY, cwd=sources.parent)
    assert (result.code, result.lines) == (0, [f"{F}:5:13: warning: see.exam: exam 'elsewhere' is not in the sources; "
                                               "the reference cannot be checked until it is added [see-exam-absent]"])
