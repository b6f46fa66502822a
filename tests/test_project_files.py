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
