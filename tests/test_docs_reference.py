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
        assert f"| `{key}` |" in fields, key
    assert "| `content_hash` |" in reference.bank_page()
