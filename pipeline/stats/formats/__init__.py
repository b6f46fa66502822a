"""One parser per export, each `detects(header) -> bool` and `parse(table, index, context) -> Parsed`.

FORMATS lists them in the order `pipeline.stats.detect` tries them; a new export is one module and one
line here. Each module's docstring names the platform code its layout follows.
"""

from __future__ import annotations

from pipeline.stats.formats import canvas_items, canvas_students, long, moodle_responses, moodle_statistics

FORMATS = (long, moodle_responses, moodle_statistics, canvas_items, canvas_students)
