"""Where a learner reports a bad item: exam.yaml's `feedback:` address with the question's id put in (percent-encoded,
so an id cannot end the query or add a parameter). The site links it on every question, the deck on every question
card's back."""

from __future__ import annotations

from urllib.parse import quote


def report_url(template: str | None, question_id: str) -> str | None:
    """The address for one question, or None when the exam gives none."""
    return template.replace("{id}", quote(question_id, safe="")) if template else None
