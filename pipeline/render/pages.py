"""Where an objective and its key points live in each output, in one place: the guide's anchors and the
site's pages. Renderers and the audit's blast radius (`pipeline.citations.blast`) both use these, so a
report's "see site/objective-6.1.html#kp-6.1-x" is where the site puts it.
"""

from __future__ import annotations

GUIDE = "study-guide.pdf"


def objective_anchor(objective_id: str) -> str:
    """The guide's (and the site's) fragment id of an objective's heading."""
    return f"objective-{objective_id}"


def key_point_anchor(key_point_id: str) -> str:
    return f"kp-{key_point_id}"


def question_anchor(question_id: str) -> str:
    return f"q-{question_id}"


def site_page(objective_id: str) -> str:
    """The site page of an objective, relative to the exam's output folder."""
    return f"site/objective-{objective_id}.html"
