"""The generated reference pages (docs/reference/) say what the code says: a stale page fails, with the fix."""

from __future__ import annotations

import argparse
import re

from docsgen import reference
from pipeline.check.codes import CODES, FIXES
from pipeline.cli.commands import COMMANDS
from pipeline.cli.main import make_parser
from pipeline.render import RENDERERS


def test_the_committed_reference_pages_match_the_code():
    assert reference.stale_pages() == [], "run `make docs-ref` and commit docs/reference/"


def test_a_changed_help_string_makes_the_commands_page_stale(monkeypatch, tmp_path):
    reference.write_pages(tmp_path)
    assert reference.stale_pages(tmp_path) == []
    from pipeline.cli import commands
    monkeypatch.setitem(commands.COMMANDS, "schema", commands.Command("pipeline.cli.schema_cmd", "a help string the page does not hold"))
    assert reference.stale_pages(tmp_path) == ["commands.md"]


def test_the_commands_page_lists_every_verb_and_option():
    page = reference.commands_page()
    seen = 0
    for name in COMMANDS:
        assert f"## `{name}`" in page
        sub = next(a for a in make_parser([name])._actions if isinstance(a, argparse._SubParsersAction)).choices[name]
        for action in sub._actions:
            for flag in action.option_strings:
                if flag.startswith("--") and flag not in ("--help", "--debug", "--quiet", "--verbose"):
                    assert f"`{flag}" in page, (name, flag)
                    seen += 1
    assert seen > 30  # the loop ran over the real options


def test_every_code_has_its_severity_and_fix_on_the_page():
    assert set(FIXES) == set(CODES), "each code in pipeline/check/codes.py needs a fix in FIXES"
    page = reference.codes_page()
    rows = re.findall(r"^## `([a-z-]+)` \{#[a-z-]+\}\n\n\*\*(error|warning)", page, flags=re.M)
    assert [code for code, _ in rows] == list(CODES)
    assert dict(rows)["review-stale"] == "warning" and dict(rows)["yaml"] == "error"


def test_every_output_and_source_field_is_on_its_page():
    outputs = reference.outputs_page()
    assert all(f"| `{name}` |" in outputs for name in RENDERERS)
    fields = reference.fields_page()
    for key in ("exam_page", "review_policy", "key_points", "check_yourself", "extra_answers", "tolerance"):
        assert f"| `{key}`" in fields, key
    assert "| `id` (required) |" in fields and "| `content_hash` (required) |" in reference.bank_page()


# ---- hand-written pages that name a vocabulary the code defines: checked against it --------------------------

def _first_cells(page: str, after: str) -> list[str]:
    """The backticked first cells of the table that follows the line starting with `after` on a docs page."""
    from tests.conftest import ROOT

    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    tail = text[text.index(after):]
    table = tail[tail.index("| ---"):].split("\n\n", 1)[0]
    return re.findall(r"^\| `([^`]+)` \|", table, flags=re.M)


def test_the_status_tables_name_the_codes_statuses():
    from schema.citation_status import Status
    from schema.example_status import ExampleStatus

    assert sorted(_first_cells("citations/audit.md", "| status | means |")) == sorted(s.value for s in Status)
    assert sorted(_first_cells("examples.md", "| status | means |")) == sorted(s.value for s in ExampleStatus)


def test_the_stats_page_names_real_codes_and_the_source_example_every_type():
    from pipeline.questions import TYPES
    from tests.conftest import ROOT

    named = _first_cells("stats.md", "| code | when | default |")
    assert named and set(named) <= set(CODES)
    text = (ROOT / "docs" / "authoring" / "sources.md").read_text(encoding="utf-8")
    listed = re.search(r"type: single +# (.+)$", text, flags=re.M)[1]
    assert [t.strip() for t in listed.split("|")] == [t.name for t in sorted(TYPES.values(), key=lambda t: (t.rank, t.name))]
    shown = set(re.findall(r"^    type: ([a-z_]+)", text, flags=re.M))
    assert shown == set(TYPES), sorted(set(TYPES) ^ shown)  # the objective example shows every question type


def test_the_commands_pages_table_names_only_real_options():
    """The hand-kept summary table on docs/commands.md: every --option in a row's first cell is one its verb takes."""
    from tests.conftest import ROOT

    text = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([a-z-]+)([^|]*(?:\\\|[^|]*)*)` \|", text, flags=re.M)
    checked = 0
    for verb, rest in rows:
        sub = next(a for a in make_parser([verb])._actions if isinstance(a, argparse._SubParsersAction)).choices[verb]
        flags = {flag for action in sub._actions for flag in action.option_strings}
        for flag in re.findall(r"--[a-z][a-z-]*", rest):
            assert flag in flags, (verb, flag)
            checked += 1
    assert {verb for verb, _ in rows} == set(COMMANDS) and checked > 30
