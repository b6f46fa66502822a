"""Where things live in the study site: file names and anchors made from source ids.

Source ids may hold dots (`6.1`, `6.1-q1`), and question ids underscores. Both are legal in file names and
HTML ids, but a dot in an id reads as a class in a CSS selector and some tools trip on it, so every character
other than a letter, digit or dash is written as `_xx` (its hex code). The mapping is one-to-one: two
different ids never share a file or an anchor. Other tools (the audit's blast-radius report) call
`objective_page` to name the page an objective is shown on.
"""

from __future__ import annotations

import re

INDEX = "index.html"
GLOSSARY = "glossary.html"
PRACTICE = "practice.html"
REFERENCES = "references.html"
SEARCH = "search.html"
REVIEW = "review.html"
MOCK = "mock.html"
MOCK_REVIEW = "mock-review.html"  # one attempt's review: ?attempt=<when it started>
PROGRESS = "progress.html"
ASSETS = "assets"

_UNSAFE = re.compile(r"[^A-Za-z0-9-]")


def safe(source_id: str) -> str:
    """`6.1-q1` -> `6_2e1-q1`: only letters, digits, dashes and `_xx` escapes (one-to-one)."""
    return _UNSAFE.sub(lambda m: f"_{ord(m.group()):02x}", source_id)


def objective_page(objective_id: str) -> str:
    """The site page of an objective, relative to the site folder: `6.1` -> `objective-6-1.html`.

    An objective id is two numbers and a dot (schema ObjectiveId), so writing the dot as a dash stays
    one-to-one and reads better in an address than the general escape."""
    return f"objective-{objective_id.replace('.', '-')}.html"


def question_anchor(question_id: str) -> str:
    return f"q-{safe(question_id)}"


def key_point_anchor(key_point_id: str) -> str:
    return f"kp-{safe(key_point_id)}"


def term_anchor(term: str) -> str:
    """A glossary entry's anchor; terms are unique in an exam regardless of case, so casefold first."""
    return f"term-{safe(term.casefold())}"


def reference_anchor(number: int) -> str:
    return f"ref-{number}"


def places(view) -> dict[tuple[str, str], tuple[str, ...]]:
    """Where the site shows each objective, relative to the exam's output folder (the audit's blast radius
    asks this through the output registry): ("objective", id) -> ("site/objective-6-1.html",), and each worked
    example, ("example", id) -> ("site/objective-6-1.html#example-<id>",)."""
    found = {("objective", o.id): (f"site/{objective_page(o.id)}",) for o in view.objectives}
    return found | {("example", e.id): (f"site/{objective_page(o.id)}#{e.anchor}",) for o in view.objectives for e in o.examples}
