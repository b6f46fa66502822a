"""`moodle.xml`: the questions in Moodle's XML format, laid out to pass its importer's rules.

Each objective's questions follow a category question (`$course$/top/<exam>/<section>/<objective>`).
Grade fractions are Moodle grade values (33.33333, never 33.3): the correct options of a multiple
question share 100, its wrong ones share -100, so a guess-all scores 0. Options keep the view's order
(shuffleanswers off, lettered ABCD as in the guide). HTML goes in CDATA, split where it holds `]]>`;
a `*` in a short answer is escaped (it is a wildcard there). Ordering questions use the `ordering`
type, core in Moodle 4.4 (the qtype_ordering plug-in before that).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape, quoteattr

from pipeline.render.lms import exportable, kind, share
from pipeline.render.lms.text import block_html, cdata, feedback_html, inline_html, item_title, plain
from pipeline.view.model import ExamView, QuestionView

if TYPE_CHECKING:
    from pipeline.render import RenderContext

NAME = "moodle.xml"
TYPES = frozenset({"single", "multiple", "true_false", "short_answer", "matching", "ordering"})
MOODLE_TYPE = {"single": "multichoice", "multiple": "multichoice", "true_false": "truefalse", "fill_in": "shortanswer",
               "essay": "essay", "matching": "matching", "ordering": "ordering"}


def category_path(q: QuestionView) -> str:
    """`$course$/top/<exam>/<section>/<objective>`; a `/` inside a name is written `//`."""
    return "$course$/top/" + "/".join(name.replace("/", "//") for name in q.category_path)


def _html(tag: str, html_text: str, extra: str = "") -> str:
    return f'<{tag} format="html"{extra}><text>{cdata(html_text)}</text></{tag}>'


def _plain(tag: str, text: str, attrs: str = "") -> str:
    return f"<{tag}{attrs}><text>{escape(text)}</text></{tag}>"


def _category(q: QuestionView) -> str:
    return (f'  <question type="category">\n    {_plain("category", category_path(q))}\n'
            f'    <info format="html"><text></text></info>\n  </question>')


def _head(q: QuestionView) -> list[str]:
    return [_plain("name", item_title(q)), _html("questiontext", block_html(q.stem_md)),
            _html("generalfeedback", feedback_html(q)), "<defaultgrade>1</defaultgrade>",
            "<penalty>0.3333333</penalty>", "<hidden>0</hidden>", f"<idnumber>{escape(q.id)}</idnumber>"]


def _choice_fraction(q: QuestionView, correct: bool) -> str:
    if q.type == "single":
        return "100" if correct else "0"
    right = len(q.correct_options)
    wrong = len(q.options) - right
    return share(right) if correct else f"-{share(wrong)}"


def _choices(q: QuestionView) -> list[str]:
    lines = [f"<single>{'true' if q.type == 'single' else 'false'}</single>", "<shuffleanswers>false</shuffleanswers>",
             "<answernumbering>ABCD</answernumbering>", "<showstandardinstruction>1</showstandardinstruction>"]
    for o in q.options:
        body = f"<text>{cdata(inline_html(o.text_md))}</text>"
        lines.append(f'<answer fraction="{_choice_fraction(q, o.correct)}" format="html">{body}'
                     f'<feedback format="html"><text></text></feedback></answer>')
    return lines


def _true_false(q: QuestionView) -> list[str]:
    return [f'<answer fraction="{"100" if o.correct else "0"}" format="moodle_auto_format"><text>{o.id}</text>'
            f'<feedback format="html"><text></text></feedback></answer>' for o in q.options]


def _fill_in(q: QuestionView) -> list[str]:
    answers = [f'<answer fraction="100" format="moodle_auto_format"><text>{escape(a.replace("*", chr(92) + "*"))}</text>'
               f'<feedback format="html"><text></text></feedback></answer>' for a in q.accepted_answers]
    return ["<usecase>0</usecase>", *answers]


def _essay(q: QuestionView) -> list[str]:
    return ["<responseformat>editor</responseformat>", "<responserequired>1</responserequired>",
            "<responsefieldlines>10</responsefieldlines>", "<attachments>0</attachments>",
            "<attachmentsrequired>0</attachmentsrequired>", _html("graderinfo", block_html(q.answer_md or "")),
            _html("responsetemplate", "")]


def _matching(q: QuestionView) -> list[str]:
    """One subquestion per pair (prompt, answer), then each extra answer as a subquestion with no prompt."""
    text = {a.id: plain(a.text_md) for a in q.answers}
    used = {p.answer_id for p in q.pairs}
    subs = [(inline_html(p.prompt_md), text[p.answer_id]) for p in q.pairs]
    subs += [("", text[a.id]) for a in q.answers if a.id not in used]
    return ["<shuffleanswers>false</shuffleanswers>"] + [
        f'<subquestion format="html"><text>{cdata(prompt) if prompt else ""}</text>'
        f'<answer><text>{escape(answer)}</text></answer></subquestion>' for prompt, answer in subs]


def _ordering(q: QuestionView) -> list[str]:
    """The answers in their correct order: Moodle takes document order as the right one and shuffles itself."""
    text = {i.id: i.text_md for i in q.items}
    answers = [f'<answer fraction="{n}" format="html"><text>{cdata(inline_html(text[item]))}</text></answer>'
               for n, item in enumerate(q.correct_order, start=1)]
    return ["<layouttype>VERTICAL</layouttype>", "<selecttype>ALL</selecttype>", "<selectcount>0</selectcount>",
            "<gradingtype>ALL_OR_NOTHING</gradingtype>", "<showgrading>SHOW</showgrading>",
            "<numberingstyle>none</numberingstyle>", *answers]


BODY = {"single": _choices, "multiple": _choices, "true_false": _true_false, "fill_in": _fill_in, "essay": _essay,
        "matching": _matching, "ordering": _ordering}


def question_xml(q: QuestionView) -> str:
    lines = _head(q) + BODY[kind(q)](q)
    inner = "\n".join(f"    {line}" for line in lines)
    return f"  <question type={quoteattr(MOODLE_TYPE[kind(q)])}>\n{inner}\n  </question>"


def moodle_xml(view: ExamView, questions: list[QuestionView]) -> str:
    parts, category = ['<?xml version="1.0" encoding="UTF-8"?>', "<quiz>"], None
    for q in questions:
        if category_path(q) != category:
            category = category_path(q)
            parts.append(_category(q))
        parts.append(question_xml(q))
    return "\n".join([*parts, "</quiz>"]) + "\n"


def render(ctx: RenderContext) -> list[Path]:
    questions = exportable(ctx.view.questions, TYPES, "moodle", {}, ctx.warnings)
    path = ctx.out_dir / NAME
    path.write_bytes(moodle_xml(ctx.view, questions).encode("utf-8"))
    return [path]
