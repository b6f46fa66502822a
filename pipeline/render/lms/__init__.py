"""LMS exports: Moodle XML, GIFT, QTI 2.1 and Canvas QTI 1.2, one module per format, each reading only the exam view.

What the four share lives here: which kind of LMS question a view question becomes, which questions a
format can hold (the others are skipped with a warning naming them, never silently), and Moodle's
grade values, which Moodle's importers insist on for GIFT and XML alike.
"""

from __future__ import annotations

from collections.abc import Iterable

from pipeline.view.model import QuestionView

# The grade fractions Moodle accepts (question_bank::fraction_options_full), as percentages written in
# its own XML export; an import rejects any other value (tolerance 1e-5).
MOODLE_GRADES = ("100", "90", "83.33333", "80", "75", "70", "66.66667", "60", "50", "40", "33.33333", "30", "25",
                 "20", "16.66667", "14.28571", "12.5", "11.11111", "10", "5", "0")


def kind(q: QuestionView) -> str:
    """The LMS question kind: a short answer with accepted answers (a fill-in) is graded automatically
    ("fill_in"); one with only a model answer needs a person to grade it ("essay")."""
    if q.type == "short_answer":
        return "fill_in" if q.accepted_answers else "essay"
    return q.type


def share(count: int) -> str:
    """One of `count` equal shares of 100 as Moodle's grade value (33.33333 for a third)."""
    wanted = 100 / count
    best = min(MOODLE_GRADES, key=lambda g: abs(float(g) - wanted))
    if abs(float(best) - wanted) > 1e-4:
        raise ValueError(f"no Moodle grade value for 1/{count}")  # a type allowing more than 10 parts would need another rule
    return best


def exportable(questions: Iterable[QuestionView], types: frozenset[str], fmt: str, why: dict[str, str],
               warnings: list[str]) -> list[QuestionView]:
    """The questions of a type `fmt` holds; each other one adds a warning naming it and saying why."""
    kept = []
    for q in questions:
        if q.type in types:
            kept.append(q)
        else:
            warnings.append(f"{fmt}: question {q.id} ({q.type}) skipped: {why.get(q.type, 'the format has no such question type')}")
    return kept
