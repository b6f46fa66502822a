"""moodle.xml: an ordering question (Moodle 4.4+)."""

from __future__ import annotations

from pipeline.render.lms.moodle import _files
from pipeline.render.lms.text import cdata, inline_html
from pipeline.shapes.sequence import Sequence


def write(part: Sequence) -> tuple[str, list[str]]:
    """The answers in their correct order: Moodle takes document order as the right one and shuffles itself
    (`ordering`, core in Moodle 4.4; the qtype_ordering plug-in before that)."""
    answers = [f'<answer fraction="{n}" format="html"><text>{cdata(inline_html(item.text_md))}</text>{_files(inline_html(item.text_md))}</answer>'
               for n, item in enumerate(part.in_order(), start=1)]
    return "ordering", ["<layouttype>VERTICAL</layouttype>", "<selecttype>ALL</selecttype>", "<selectcount>0</selectcount>",
                        "<gradingtype>ALL_OR_NOTHING</gradingtype>", "<showgrading>SHOW</showgrading>",
                        "<numberingstyle>none</numberingstyle>", *answers]
