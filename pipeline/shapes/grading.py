"""Grading, defined once: how typed answers are normalised and how a response to each shape is scored.

The rules are data. `NORMALISE` is a list of steps, `NUMBER` a regular expression both Python's `re` and
JavaScript's `RegExp` read the same way, and `rule(part)` is what one part needs to be graded. The study
site receives exactly this data (pipeline/render/site/data.py) and applies it with the small interpreter
in templates/site/grade.js; `grade()` here is the same interpreter in Python, used by the exports' notes
and the tests. tests/test_grading.py feeds one table of answers to both and requires the same verdicts.

Typed answers: Unicode compatibility forms folded (NFKC), case folded, hyphens and dashes read as
spaces, punctuation (Unicode category P) dropped except a point or comma between digits, runs of space
collapsed (`NORMALISE`). Symbols are kept, so "C" is not "C++" (a percent sign is punctuation: "30%" is
"30", as "30 percent" is). Then the forms a
learner who knows the answer writes are made one (`EQUIVALENT`, applied to the accepted answers and to
what is typed alike): a leading article goes ("a hyperparameter"); "about", "approximately", "~" before a
number go; number words up to twenty are digits ("eight" is 8); "percent" after a number goes; "4
times", "4×" and "4-fold" are "4x"; thousands separators go (1,048 and 1 048 are 1048); a regular English
plural is its singular ("hyperparameters", "GPUs", "batches"); and spaces between letters or digits go, so
"hyper-parameter", "hyper parameter" and "hyperparameter" are one answer. Every word and number must
still be there: "batching" is not "dynamic batching" (an author lists it in `accept:` when it is right).

A number (`NUMBER_PREPARE`, `NUMBER`): a sign, digits with thousands commas or spaces, a decimal point, an
exponent; before it a hedge ("about", "~") or a number word instead of digits; after it nothing, or a unit
the part accepts (`units`: its own unit in any of the forms above, "percent" for "%", and, when the answer
is a ratio, "x", "×", "times").

Scores: choices, one right: 1 or 0; several right: each right option chosen adds 1/right, each wrong one
takes 1/wrong, never below 0 (right only when exactly the right ones are chosen, as in Moodle); text: 1 when
the normalised answer is one of the accepted ones; pairs: each prompt matched adds an equal share; a
sequence: 1 when every item is in its place; numeric: 1 when low <= number <= high.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

RULE_TEXT = "case, spacing and punctuation are ignored"

# Spaces as one explicit class: Python's str.split() and JavaScript's \s disagree on a few characters.
SPACE = "[\\t\\n\\u000b\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]+"
NORMALISE: tuple[dict, ...] = (
    {"op": "nfkc"},
    {"op": "fold"},  # upper then lower case: both languages have it (ß -> ss, ς -> σ), unlike casefold()
    {"op": "replace", "pattern": "[\\-\\u2010-\\u2015\\u2212]", "with": " "},  # hyphens, dashes, minus: spaces
    # a point or comma between digits is part of a number ("3.14" is not "314"): kept aside as private-use
    # characters (category Co) while punctuation (category P) is dropped, then put back
    {"op": "replace", "pattern": "(?<=[0-9])\\.(?=[0-9])", "with": "\ue000"},
    {"op": "replace", "pattern": "(?<=[0-9]),(?=[0-9])", "with": "\ue001"},
    {"op": "drop_category", "category": "P"},
    {"op": "replace", "pattern": "\ue000", "with": "."},
    {"op": "replace", "pattern": "\ue001", "with": ","},
    {"op": "replace", "pattern": SPACE, "with": " "},
    {"op": "trim"},
)
# The forms one answer takes, made one. Each pattern is read alike by Python's `re` and JavaScript's
# `RegExp` (flag u): ASCII classes only, fixed-width lookbehinds. The text is already normalised: lower
# case, punctuation gone, one space between words.
NUMBER_WORDS = {w: str(n) for n, w in enumerate((
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"))}
_WORDS = "|".join(sorted(NUMBER_WORDS, key=lambda w: (-len(w), w)))
_UNITS = "(?:one|two|three|four|five|six|seven|eight|nine)"
HEDGES = "about|approximately|approx|around|roughly|circa"
EQUIVALENT: tuple[dict, ...] = (
    {"op": "replace", "pattern": "^(?:a|an|the) (?=.)", "with": ""},  # an article before the answer
    {"op": "replace", "pattern": f"(?<![a-z0-9])(?:{HEDGES}) (?=[0-9]|(?:{_WORDS})(?![a-z]))", "with": ""},  # "about 30%"
    {"op": "replace", "pattern": "[~\u2248] ?(?=[0-9])", "with": ""},  # "~30%", "≈ 4x"
    # "eight" is 8; "twenty one" is left alone (it is no 201)
    {"op": "map", "pattern": f"(?<![a-z])(?<!twenty )(?:{_WORDS})(?![a-z])(?! {_UNITS}(?![a-z]))", "table": NUMBER_WORDS},
    {"op": "replace", "pattern": "(?<=[0-9]) ?per ?cent(?![a-z])", "with": ""},  # "30 percent" is "30%", which is "30"
    {"op": "replace", "pattern": "(?<=[0-9]) ?(?:times|fold|\u00d7)(?![a-z])", "with": "x"},  # "4 times", "4×", "4-fold"
    {"op": "replace", "pattern": "(?<=[0-9])[, ](?=[0-9]{3}(?![0-9]))", "with": ""},  # 1,048 and 1 048
    # a regular plural is its singular (both sides alike, so only consistency matters): -ies, then -es after
    # s, x, z, ch, sh (with the e of the singular: "size" and "sizes" are both "siz"), then any -s but -ss
    {"op": "replace", "pattern": "(?<=[a-z]{2})ies(?![a-z0-9])", "with": "y"},
    {"op": "replace", "pattern": "(?<=[a-z][sxz])es(?![a-z0-9])", "with": ""},
    {"op": "replace", "pattern": "(?<=[a-z][cs]h)es(?![a-z0-9])", "with": ""},
    {"op": "replace", "pattern": "(?<=[a-z][sxz])e(?![a-z0-9])", "with": ""},
    {"op": "replace", "pattern": "(?<=[a-z][cs]h)e(?![a-z0-9])", "with": ""},
    {"op": "replace", "pattern": "(?<=[a-z]{2}[a-rt-z])s(?![a-z0-9])", "with": ""},
    {"op": "join"},  # no space between two letters or digits (Unicode categories L and N)
)
# What may follow a number as its unit, besides nothing: the unit's own forms, and for a ratio these.
RATIO_UNITS = ("x",)
UNIT: tuple[dict, ...] = (
    {"op": "replace", "pattern": "^(?:times|fold|\u00d7)$", "with": "x"},
    {"op": "replace", "pattern": "^(?:per ?cent|pct)$", "with": ""},  # "%" is punctuation: gone already
)
# A number as a learner types it, after NUMBER_PREPARE: a sign (the minus sign too), digits with optional
# thousands commas or spaces, a decimal point, an exponent, then optionally the unit. Group 1 is the
# number, group 2 what follows it. [0-9], never \d: Python's \d also takes other scripts' digits,
# JavaScript's does not.
NUMBER_PREPARE: tuple[dict, ...] = (
    {"op": "nfkc"}, {"op": "fold"}, {"op": "replace", "pattern": SPACE, "with": " "}, {"op": "trim"},
    {"op": "replace", "pattern": f"^(?:(?:{HEDGES}) |[~\u2248] ?)", "with": ""},
    {"op": "map", "pattern": f"^(?:{_WORDS})(?![a-z])(?! {_UNITS}(?![a-z]))", "table": NUMBER_WORDS},
)
NUMBER = ("^([+\\-\\u2212]?(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]{1,3}(?: [0-9]{3})+|[0-9]+)?(?:\\.[0-9]+)?(?:e[+\\-]?[0-9]+)?)"
          " *(.*)$")


def normalise(text: str, steps: tuple[dict, ...] = NORMALISE) -> str:
    for step in steps:
        text = _apply(step, text)
    return text


def answer_key(text: str) -> str:
    """What a typed answer is compared by: normalised, then its equivalent forms made one."""
    return normalise(normalise(text), EQUIVALENT)


def unit_key(text: str) -> str:
    """What a unit typed after a number is compared by ("tokens", "Token" and "token" are one; "times",
    "×" and "x" are one; "%", "percent" and "pct" are all "")."""
    return normalise(normalise(normalise(text), UNIT), EQUIVALENT)


def _apply(step: dict, text: str) -> str:
    op = step["op"]
    if op == "nfkc":
        return unicodedata.normalize("NFKC", text)
    if op == "fold":
        return text.upper().lower()
    if op == "replace":
        return re.sub(step["pattern"], step["with"], text)
    if op == "map":
        return re.sub(step["pattern"], lambda m: step["table"][m[0]], text)
    if op == "drop_category":
        return "".join(ch for ch in text if not unicodedata.category(ch).startswith(step["category"]))
    if op == "join":
        return _join(text)
    if op == "trim":
        return re.sub("^ +| +$", "", text)
    raise ValueError(f"unknown normalisation step {op!r}")


def _word_char(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "LN"


def _join(text: str) -> str:
    """Spaces dropped between two letters or digits (of any script), kept beside a symbol ("c + +")."""
    return "".join(ch for i, ch in enumerate(text)
                   if not (ch == " " and 0 < i < len(text) - 1 and _word_char(text[i - 1]) and _word_char(text[i + 1])))


def parse_number(text: str, units: tuple[str, ...] | list[str] = ()) -> float | None:
    """The number typed, or None when it is not one (or is followed by anything but one of `units`, which
    are `unit_key`s)."""
    match = re.match(NUMBER, normalise(text, NUMBER_PREPARE))
    if not match or not re.search("[0-9]", match[1]):
        return None
    rest = match[2]
    if rest and unit_key(rest) not in units:
        return None
    return float(re.sub("[, ]", "", match[1]).replace("\u2212", "-"))


@dataclass(frozen=True)
class Verdict:
    score: float  # 0..1
    right: bool | None  # None: nothing given yet, or a person must judge (a text part without accepted answers)


def rule(part: object) -> dict:
    """What grading one part needs, as JSON-able data: the site's grader reads exactly this (each shape's
    module defines its own, pipeline/shapes/registry.py finds it; an unknown shape is UnknownShape)."""
    from pipeline.shapes import registry  # the shapes' modules import this one

    return registry.of(part).rule(part)


def grade(data: dict, response: object) -> Verdict:
    """Score `response` against one part's `rule()` data, as templates/site/grade.js does."""
    from pipeline.shapes import registry

    if response is None or response == "" or response == [] or response == {}:
        return Verdict(0.0, None)
    return registry.named(data["shape"]).grade(data, response)


def site_data() -> dict:
    """The shared rules the site's grader needs besides each part's rule."""
    return {"normalise": list(NORMALISE), "equivalent": list(EQUIVALENT), "unit": list(UNIT),
            "numberPrepare": list(NUMBER_PREPARE), "number": NUMBER}
