"""moodle.xml: a Cloze question (qtype multianswer), each gap a {1:SHORTANSWER:=a~=b} in its text, equal weights."""

from __future__ import annotations

from html import escape

from pipeline.render.lms import text
from pipeline.shapes.cloze import Cloze, Gap

# Characters a Cloze subquestion's answer escapes with a backslash (Moodle's qtype_multianswer syntax).
_MOODLE_SPECIAL = "\\}#~/\""


def _moodle_answer(answer: str) -> str:
    html_text = escape(answer, quote=False)  # the question text is HTML
    return "".join(f"\\{ch}" if ch in _MOODLE_SPECIAL else ch for ch in html_text)


def _moodle_gap(gap: Gap, n: int) -> str:
    return f"{{1:SHORTANSWER:{'~'.join('=' + _moodle_answer(a) for a in gap.accepted)}}}"


def write(part: Cloze) -> tuple[str, list[str], str]:
    """qtype "cloze" (multianswer): the gaps live in the question text, which the writer continues."""
    return "cloze", [], f'<p class="cloze-passage">{part.woven(_moodle_gap, text.inline_html)}</p>'
