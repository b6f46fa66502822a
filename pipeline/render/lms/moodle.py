"""`moodle.xml`: the questions in Moodle's XML format, laid out to pass its importer's rules.

Each objective's questions follow a category question (`$course$/top/<exam>/<section>/<objective>`).
Grade fractions are Moodle grade values (33.33333, never 33.3): the correct options of a multiple
question share 100, its wrong ones share -100, so a guess-all scores 0. Options keep the view's order
(shuffleanswers off, lettered ABCD as in the guide). HTML goes in CDATA, split where it holds `]]>`;
a `*` in a short answer is escaped (it is a wildcard there). Shapes become Moodle types: choices ->
multichoice or truefalse, text -> shortanswer or essay, pairs -> matching, sequence -> ordering (core in
Moodle 4.4, the qtype_ordering plug-in before), numeric -> numerical.
"""

from __future__ import annotations

import base64
import contextvars
from pathlib import Path
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape, quoteattr

from pipeline.render.lms.text import block_html, cdata, feedback_html, item_title
from pipeline.render.lms.variants import flattened
from pipeline.render.support import writable, writers_for
from pipeline.shapes import registry
from pipeline.shapes.parts import Part
from pipeline.text.images import flat_name, shown_in
from pipeline.text.linebreaks import one_line
from pipeline.view.model import ExamView, QuestionView

if TYPE_CHECKING:
    from pipeline.render import RenderContext

NAME = "moodle.xml"


def category_path(q: QuestionView) -> str:
    """`$course$/top/<exam>/<section>/<objective>` on one line (GIFT's `$CATEGORY:` line ends at any line
    break, and a title may hold one); a `/` inside a name is written `//`."""
    return "$course$/top/" + "/".join(one_line(name).replace("/", "//") for name in q.category_path)


# The exam's images while its questions are written: a text that shows one carries it as a base64 <file>
# beside its <text>, which Moodle's importer stores in the question's file area for @@PLUGINFILE@@ to find.
MEDIA: contextvars.ContextVar[tuple] = contextvars.ContextVar("moodle_media", default=())


def _files(html_text: str) -> str:
    """The <file> elements of the images `html_text` shows."""
    return "".join(f'<file name="{escape(flat_name(f.path))}" path="/" encoding="base64">{base64.b64encode(f.media_bytes).decode()}</file>'
                   for f in shown_in(html_text, MEDIA.get(), "pluginfile"))


def _html(tag: str, html_text: str, extra: str = "") -> str:
    return f'<{tag} format="html"{extra}><text>{cdata(html_text)}</text>{_files(html_text)}</{tag}>'


def _plain(tag: str, text: str, attrs: str = "") -> str:
    return f"<{tag}{attrs}><text>{escape(text)}</text></{tag}>"


def _category(q: QuestionView) -> str:
    return (f'  <question type="category">\n    {_plain("category", category_path(q))}\n'
            f'    <info format="html"><text></text></info>\n  </question>')


def _head(q: QuestionView, text_after: str = "") -> list[str]:
    return [_plain("name", item_title(q)), _html("questiontext", block_html(q.stem_md) + text_after),
            _html("generalfeedback", feedback_html(q)), "<defaultgrade>1</defaultgrade>",
            "<penalty>0.3333333</penalty>", "<hidden>0</hidden>", f"<idnumber>{escape(q.id)}</idnumber>"]


NO_FEEDBACK = '<feedback format="html"><text></text></feedback>'


def _number(value: float) -> str:
    return repr(value) if value != int(value) else str(int(value))




def question_xml(q: QuestionView) -> str:
    part: Part = q.parts[0]
    # each shape's writer: (Moodle qtype, the question's elements[, HTML the question text continues with:
    # a Cloze question's embedded answers live in its text])
    qtype, body, *text_after = registry.writer(part, "moodle")(part)
    inner = "\n".join(f"    {line}" for line in _head(q, *text_after) + body)
    return f"  <question type={quoteattr(qtype)}>\n{inner}\n  </question>"


def moodle_xml(view: ExamView, questions: list[QuestionView]) -> str:
    parts, category = ['<?xml version="1.0" encoding="UTF-8"?>', "<quiz>"], None
    for q in flattened(questions):  # a varied question: its variants, in a category of their own
        if category_path(q) != category:
            category = category_path(q)
            parts.append(_category(q))
        parts.append(question_xml(q))
    return "\n".join([*parts, "</quiz>"]) + "\n"


def render(ctx: RenderContext) -> list[Path]:
    questions = writable(ctx.view.questions, writers_for("moodle"), "moodle", ctx.warnings, max_parts=1)
    path = ctx.out_dir / NAME
    token = MEDIA.set(ctx.view.media)
    try:
        path.write_bytes(moodle_xml(ctx.view, questions).encode("utf-8"))
    finally:
        MEDIA.reset(token)
    return [path]
