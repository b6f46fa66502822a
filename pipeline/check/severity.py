"""Per-check severity: an exam's `checks:` in exam.yaml sets a check code to error, warning or off.

Applied to the diagnostics of one exam's files after all its checks ran, so a check never needs to know
its own severity. A code that names no check is itself an error, with the nearest code suggested.
"""

from __future__ import annotations

import difflib
from dataclasses import replace

from pipeline.check import thresholds
from pipeline.check.codes import CONFIGURABLE
from pipeline.diagnostics import Diagnostic, Report, Severity
from pipeline.load.content import ExamFile


def configured(exam_file: ExamFile, report: Report) -> dict[str, str]:
    """The exam's valid severity settings (code -> level); each unknown code, and each threshold a code does
    not take or that is out of range, is reported at its key."""
    settings = {}
    for code, setting in exam_file.exam.checks.items():
        position = exam_file.doc.key_position(("checks", code))
        if code not in CONFIGURABLE:
            guess = difflib.get_close_matches(code, sorted(CONFIGURABLE), n=1)
            hint = f"; did you mean '{guess[0]}'?" if guess else ""
            report.error(exam_file.path, position, f"checks.{code}: no check has this code{hint} (codes: the documentation's Diagnostic codes page)", "check-config")
        elif problem := thresholds.problem(code, setting):
            report.error(exam_file.path, position, problem, "check-config")
        else:
            settings[code] = setting if isinstance(setting, str) else setting.severity
    return settings


def apply(diagnostics: list[Diagnostic], settings: dict[str, str]) -> list[Diagnostic]:
    """The diagnostics with each configured code's severity set, and those set `off` left out."""
    result = []
    for d in diagnostics:
        level = settings.get(d.code)
        if level == "off":
            continue
        result.append(replace(d, severity=Severity(level)) if level else d)
    return result
