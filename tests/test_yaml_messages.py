"""The YAML parser's own messages, said in the author's words at the line and column where the author erred
(not where the parser gave up), each with its fix. One test per mistake authors make."""

from __future__ import annotations

import pytest

from tests.conftest import TODAY

HEAD = 'id: "1.1"\ntitle: Basics\nsummary: What things are.\nreviewed: 2026-11-01\n'
CASES = {
    "colon inside a flow mapping": (
        "terms:\n  - {term: GPU, definition: A unit: fast math}\n", "6:29",
        """invalid YAML: the value 'A unit: fast math' holds ': ', which ends a key inside {...}; quote it: definition: "A unit: fast math\""""),
    "a dedented list": (
        "questions:\n  - id: q1\n    options:\n      - A\n     - B\n", "9:6",
        "invalid YAML: this list item is indented 5 spaces, less than the list items above it (6, line 8); line it up with them"),
    "an under-indented key": (
        "questions:\n  - id: q1\n    type: single\n   stem: What?\n", "8:4",
        "invalid YAML: this key is indented 3 spaces, less than the keys above it (4, line 7); line it up with them"),
    "a single quote inside '...'": (
        "questions:\n  - id: q1\n    stem: 'It's fine'\n", "7:14",
        "invalid YAML: this ' ends the quoted value early (the text goes on after it); write it twice inside single quotes "
        """('It''s fine'), or use double quotes: "It's fine\""""),
    "a double quote inside \"...\"": (
        'questions:\n  - id: q1\n    stem: "He said "hi" to me"\n', "7:20",
        """invalid YAML: this " ends the quoted value early (the text goes on after it); escape it as \\" ("He said \\"hi\\" to me"), """
        """or use single quotes: 'He said "hi" to me'"""),
    "a block that starts with a space": (
        "examples:\n  - title: psql\n    output: |\n         id | name\n        ----+------\n    code: x\n", "7:5",
        "invalid YAML: this block's first line is indented more than line 9, so YAML ends the block there; keep the leading spaces "
        "with an indentation indicator: output: |4 (its lines are indented 4 spaces more than `output:`)"),
    "a flow mapping never closed": (
        "terms:\n  - {term: GPU, definition: A unit\nlabs: []\n", "6:5",
        "invalid YAML: the { opened here is never closed; close it with } at the end of line 6"),
    "a flow sequence never closed": (
        "labs: [\n", "5:7", "invalid YAML: the [ opened here is never closed; close it with ] at the end of line 5"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_yaml_mistake_is_reported_where_it_is_with_its_fix(run_cli, make_sources, case):
    body, place, message = CASES[case]
    sources = make_sources("valid")
    (sources / "demo" / "broken.yaml").write_text(HEAD + body, encoding="utf-8")
    result = run_cli("validate", "--today", TODAY, cwd=sources.parent)
    assert result.code == 1
    assert f"sources/demo/broken.yaml:{place}: error: {message} [yaml]" in result.lines, result.out


def test_a_closing_quote_never_opened_is_an_error_at_the_quote(run_cli, make_sources):
    sources = make_sources("valid")
    path = sources / "demo" / "valid.yaml"
    path.write_text(path.read_text().replace("summary: What things are.", 'summary: What things are."'), encoding="utf-8")
    result = run_cli("validate", "--today", TODAY, cwd=sources.parent)
    assert result.code == 1
    assert result.lines == ["sources/demo/valid.yaml:3:26: error: summary: a closing \" with no opening one, so it would be shown as part "
                            'of the text; open the value with " too ("What things are.") or remove it [yaml]'], result.out


def test_the_indicator_the_message_gives_keeps_the_leading_spaces(run_cli, make_sources):
    sources = make_sources("valid")
    body = CASES["a block that starts with a space"][0].replace("output: |", "output: |4")
    (sources / "demo" / "fixed.yaml").write_text(HEAD.replace('"1.1"', '"1.9"') + body.replace("  - title: psql", "  - id: 1.9-psql\n    title: psql\n    language: sql")
                                                 + "key_points:\n  - {id: 1.9-kp, text: A point.}\n", encoding="utf-8")
    result = run_cli("validate", "--today", TODAY, cwd=sources.parent)
    assert not [line for line in result.lines if "fixed.yaml" in line and ": error: " in line], result.out
