"""What the guide's "Exam essentials" box says of a key point: the one rule the guide prints by and the
check of tested facts (pipeline/check/essentials.py) reads by, so the two never disagree.

The author writes it (`essential:` on the key point); without one, the whole point stands in, its tables,
display formulas and figures left out (they are no bullet's text). A point's first sentence, which the guide
printed before, lost the fact a question tests in about 13 of the sample's 22 points (issue 34).
"""

from __future__ import annotations

import re

from pipeline.text import cloze

_FIGURE = re.compile(r"^\s*!\[[^\n]*\)\s*$")  # a paragraph that is one image and nothing else


def printed(essential_md: str | None, text_md: str) -> str:
    """The bullet's Markdown: `essential_md`, else `text_md` without its tables and figures; a cloze mark shows its
    hidden phrase in bold (what the author marked as worth testing), whitespace folded to single spaces."""
    if essential_md is not None:
        text = essential_md
    else:
        text = "\n\n".join(p for p in re.split(r"\n[ \t]*\n", cloze.prose(text_md)) if not _FIGURE.match(p))
    return " ".join(cloze.CLOZE.sub(lambda m: f"**{m['answer']}**", text).split())
