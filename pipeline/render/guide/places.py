"""Where the study guide puts each objective and worked example: its anchor in the PDF (an anchor survives a reflow, a page
number does not). The audit's blast radius asks this through the output registry."""

from __future__ import annotations

from pipeline.view.model import ExamView

GUIDE_FILE = "study-guide.pdf"


def places(view: ExamView) -> dict[tuple[str, str], tuple[str, ...]]:
    """("objective", id) -> ("study-guide.pdf#objective-6.1",); ("example", id) -> ("study-guide.pdf#example-<id>",)."""
    found = {("objective", o.id): (f"{GUIDE_FILE}#{o.anchor}",) for o in view.objectives}
    return found | {("example", e.id): (f"{GUIDE_FILE}#{e.anchor}",) for o in view.objectives for e in o.examples}
