"""moodle.xml: shortanswer (accepted answers) or essay (a model answer only)."""

from __future__ import annotations

from xml.sax.saxutils import escape

from pipeline.render.lms.moodle import NO_FEEDBACK, _html
from pipeline.render.lms.text import block_html
from pipeline.shapes.text import Text


def write(part: Text) -> tuple[str, list[str]]:
    """A fill-in is a `shortanswer` (a `*` is a wildcard there, so it is escaped); without accepted answers, an `essay`."""
    if part.auto:
        answers = [f'<answer fraction="100" format="moodle_auto_format"><text>{escape(a.replace("*", chr(92) + "*"))}</text>{NO_FEEDBACK}</answer>'
                   for a in part.accepted]
        return "shortanswer", ["<usecase>0</usecase>", *answers]
    return "essay", ["<responseformat>editor</responseformat>", "<responserequired>1</responserequired>",
                     "<responsefieldlines>10</responsefieldlines>", "<attachments>0</attachments>",
                     "<attachmentsrequired>0</attachmentsrequired>", _html("graderinfo", block_html(part.model_answer_md or "")),
                     _html("responsetemplate", "")]
