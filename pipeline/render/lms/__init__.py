"""LMS exports: Moodle XML, GIFT, QTI 2.1 and Canvas QTI 1.2, one module per format, each reading only the exam view.

Each writes the view's interaction shapes (pipeline/shapes/parts.py), one LMS question per view question
of one part; what a format has no writer for is skipped with a warning (pipeline/render/support.py). What
the four share lives here: Moodle's grade values, which its importers insist on for GIFT and XML alike.
"""

from __future__ import annotations

# The grade fractions Moodle accepts (question_bank::fraction_options_full), as percentages written in
# its own XML export; an import rejects any other value (tolerance 1e-5).
MOODLE_GRADES = ("100", "90", "83.33333", "80", "75", "70", "66.66667", "60", "50", "40", "33.33333", "30", "25",
                 "20", "16.66667", "14.28571", "12.5", "11.11111", "10", "5", "0")


def share(count: int) -> str:
    """One of `count` equal shares of 100 as Moodle's grade value (33.33333 for a third)."""
    wanted = 100 / count
    best = min(MOODLE_GRADES, key=lambda g: abs(float(g) - wanted))
    if abs(float(best) - wanted) > 1e-4:
        raise ValueError(f"no Moodle grade value for 1/{count}")  # a type allowing more than 10 parts would need another rule
    return best
