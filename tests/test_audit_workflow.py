"""The scheduled audit's workflow file: weekly and by hand, the audit's own options (parsed by the real
command line), both reports uploaded, failing on new problems only."""

from __future__ import annotations

import re
import shlex

import yaml

from pipeline.cli.main import make_parser
from tests.conftest import ROOT

WORKFLOW = ROOT / ".github" / "workflows" / "audit.yml"


def steps() -> list[dict]:
    return yaml.safe_load(WORKFLOW.read_text())["jobs"]["audit"]["steps"]


def test_runs_weekly_and_by_hand():
    triggers = yaml.safe_load(WORKFLOW.read_text())[True]  # YAML 1.1 reads the key `on` as true
    [schedule] = triggers["schedule"]
    minute, hour, day, month, weekday = schedule["cron"].split()
    assert (day, month, weekday.isdigit()) == ("*", "*", True)
    assert "workflow_dispatch" in triggers


def test_make_audit_with_both_reports_failing_on_new_problems_only():
    [run] = [s["run"] for s in steps() if "make audit" in s.get("run", "")]
    args = shlex.split(re.search(r'ARGS="([^"]*)"', run).group(1))
    parsed = make_parser(["audit", *args]).parse_args(["audit", *args])  # options the audit really has
    assert parsed.new_only and not parsed.no_archive
    assert sorted(p.suffix for p in parsed.report) == [".json", ".md"]
    [upload] = [s for s in steps() if s.get("uses", "").startswith("actions/upload-artifact")]
    assert upload["if"] == "always()"  # a failed audit is the one whose reports matter most
    assert set(upload["with"]["path"].split()) == {str(p) for p in parsed.report}
