"""The item-statistics checks' thresholds: defaults, the range each may take, and an exam's settings.

An exam sets them under `checks:` in exam.yaml, e.g. `item-too-easy: {threshold: 0.9, min_responses: 50}`
(a bare `warning`/`error`/`off` keeps the default threshold). `pipeline.check.severity` reports a
threshold out of range, or given to a code that takes none, at its key.
"""

from __future__ import annotations

from dataclasses import dataclass

MIN_RESPONSES = 30  # below this many answers a facility or a correlation says little: the item is not judged


@dataclass(frozen=True)
class Rule:
    default: float
    low: float
    high: float
    meaning: str


RULES: dict[str, Rule] = {
    "item-too-easy": Rule(0.95, 0.0, 1.0, "facility above which an item is too easy"),
    "item-too-hard": Rule(0.30, 0.0, 1.0, "facility below which an item is too hard"),
    "item-negative-discrimination": Rule(0.0, -1.0, 1.0, "corrected item-rest point-biserial below which an item is likely mis-keyed"),
    "item-dead-distractor": Rule(0.05, 0.0, 1.0, "share of learners below which a wrong option distracts no one"),
    # 0.01, not 0.05: an exam tests each varied question, and at 0.05 twenty of them with truly equal variants
    # would raise about one false warning a run; min_responses is per variant (the chi-square's cells need them)
    "item-variants-differ": Rule(0.01, 0.0, 0.5, "p-value of the chi-square across a question's variants below which their facilities "
                                                 "differ beyond chance"),
}


@dataclass(frozen=True)
class Threshold:
    value: float
    min_responses: int


def threshold(checks: dict, code: str) -> Threshold:
    """The exam's threshold for `code` (its default where the exam sets none, or one `problem` refuses)."""
    setting = checks.get(code)
    if problem(code, setting):
        setting = None
    value = getattr(setting, "threshold", None)
    least = getattr(setting, "min_responses", None)
    return Threshold(RULES[code].default if value is None else value, MIN_RESPONSES if least is None else least)


def problem(code: str, setting: object) -> str | None:
    """Why a `checks:` entry's threshold cannot be used, or None."""
    value = getattr(setting, "threshold", None)
    if value is None and getattr(setting, "min_responses", None) is None:
        return None
    if code not in RULES:
        return f"checks.{code}: this check takes a severity only (error, warning or off), not a threshold; thresholds go with {', '.join(sorted(RULES))}"
    rule = RULES[code]
    if value is not None and not rule.low <= value <= rule.high:
        return f"checks.{code}.threshold: {value} is out of range; expected the {rule.meaning}, from {rule.low:g} to {rule.high:g} (default {rule.default:g})"
    return None
