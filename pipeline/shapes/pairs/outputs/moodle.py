"""moodle.xml: a matching question."""

from __future__ import annotations

from xml.sax.saxutils import escape

from pipeline.render.lms.moodle import _files
from pipeline.render.lms.text import cdata, inline_html
from pipeline.shapes.pairs import Pairs
from pipeline.text.plaintext import to_plain


def write(part: Pairs) -> tuple[str, list[str]]:
    """One subquestion per pair (prompt, answer), then each extra answer as a subquestion with no prompt."""
    used = {p.answer_id for p in part.prompts}
    subs = [(inline_html(p.text_md), to_plain(part.answer_of(p).text_md)) for p in part.prompts]
    subs += [("", to_plain(a.text_md)) for a in part.answers if a.id not in used]
    return "matching", ["<shuffleanswers>false</shuffleanswers>"] + [
        f'<subquestion format="html"><text>{cdata(prompt) if prompt else ""}</text>{_files(prompt)}'
        f'<answer><text>{escape(answer)}</text></answer></subquestion>' for prompt, answer in subs]
