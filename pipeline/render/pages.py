"""Where an objective lives in each output, in one place: the guide's anchor and the site's page.

The audit's blast radius (`pipeline.findings.blast`) names these, so a report's
"site/objective-6-1.html" is where the site puts it.
"""

from __future__ import annotations

from pipeline.render.site.paths import objective_page

GUIDE = "study-guide.pdf"


def objective_anchor(objective_id: str) -> str:
    """The guide's (and the site's) fragment id of an objective's heading."""
    return f"objective-{objective_id}"


def site_page(objective_id: str) -> str:
    """The site page of an objective, relative to the exam's output folder (the site names its own pages)."""
    return f"site/{objective_page(objective_id)}"
