"""The files a project keeps beside its code: the test workflow, the licence, the changelog, the version."""

from __future__ import annotations

import re
import tomllib

import yaml

from pipeline import __version__
from tests.conftest import ROOT

WORKFLOW = ROOT / ".github" / "workflows" / "test.yml"


def test_the_workflow_runs_make_test_on_every_push_and_pull_request():
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    assert {"push", "pull_request"} <= set(workflow[True])  # YAML 1.1 reads the key `on` as true
    runs = [step.get("run", "") for step in workflow["jobs"]["test"]["steps"]]
    assert [run for run in runs if run.startswith("make test")], runs
    assert workflow["jobs"]["test"]["container"].startswith("python:3.11")


def test_the_licence_is_the_one_the_package_declares():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "MIT" and (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")


def test_the_changelog_has_the_packages_version_and_an_unreleased_section():
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    versions = re.findall(r"^## (\S+)", text, flags=re.M)
    assert versions[0] == "Unreleased" and versions[1] == __version__


def _table_names(text: str, heading: str) -> list[str]:
    """The first cells (in backticks) of the Markdown table that follows `heading` in a docs page."""
    after = text[text.index(heading):]
    rows = re.findall(r"^\| `([^`]+)`", after[: after.index("\n\n", after.index("| ---"))], flags=re.M)
    return rows


def test_the_outputs_page_lists_the_outputs_the_registry_has_with_their_aliases():
    from pipeline.render import RENDERERS, output

    text = (ROOT / "docs" / "outputs" / "index.md").read_text(encoding="utf-8")
    assert _table_names(text, "## Names") == list(RENDERERS)
    for name, entry in RENDERERS.items():
        row = re.search(rf"^\| `{name}` \|.*$", text, flags=re.M)[0]
        assert all(f"`{alias}`" in row for alias in output(entry).aliases), row
        assert all(part.strip() in row for part in output(entry).writes.split(",")), row


def test_the_commands_page_and_help_list_the_same_commands():
    from pipeline.cli.commands import COMMANDS
    from pipeline.cli.main import make_parser

    text = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    listed = {cell.split()[0] for cell in _table_names(text, "# Commands")}
    assert listed == set(COMMANDS)
    help_text = make_parser([]).format_help()
    assert all(name in help_text for name in COMMANDS)
