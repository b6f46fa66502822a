"""`canvas-qti.zip`: the questions as one Canvas practice quiz in QTI 1.2, laid out as Canvas's own
export (and text2qti) lays it out:

    imsmanifest.xml                  the quiz resource and its Canvas settings file
    non_cc_assessments/              (empty folder, as Canvas writes it)
    <quiz>/<quiz>.xml                questestinterop: one item per question
    <quiz>/assessment_meta.xml       Canvas's quiz settings (a practice quiz, answers in the given order)

Shapes become Canvas types: choices -> multiple_choice, multiple_answers or true_false; text ->
short_answer (accepted answers) or essay (a model answer only); pairs -> matching; numeric -> numerical
(the value or a range). Classic Canvas quizzes have no ordering question, so a sequence is skipped with a
warning. Text is HTML, entity-escaped in `mattext`;
matching prompts and answers are plain text (Canvas shows them as such).
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape, quoteattr

from pipeline.render.lms import text as lms_text
from pipeline.render.lms.package import write_zip
from pipeline.render.lms.qti21 import identifier
from pipeline.render.lms.text import item_title
from pipeline.render.lms.variants import variant_items
from pipeline.render.support import writable, writers_for
from pipeline.shapes import registry
from pipeline.text import images
from pipeline.view.model import ExamView, QuestionView

MATH = "mathml"  # formulas as MathML, which QTI 2.1 items may hold (pipeline/text/formulas.py)
MEDIA = "canvas"  # $IMS-CC-FILEBASE$/media/<path>: Canvas's name for the package's web_resources/ folder
block_html, inline_html, feedback_html = (partial(f, math=MATH, media=MEDIA) for f in (lms_text.block_html, lms_text.inline_html, lms_text.feedback_html))
WEB = "web_resources"

if TYPE_CHECKING:
    from pipeline.render import RenderContext

NAME = "canvas-qti.zip"
HEADER = '<?xml version="1.0" encoding="UTF-8"?>\n'


def quiz_id(view: ExamView) -> str:
    return f"quiz_{view.exam.id}"


def _mattext(html_text: str, texttype: str = "text/html") -> str:
    return f'<material><mattext texttype="{texttype}">{escape(html_text)}</mattext></material>'


def _field(label: str, value: str) -> str:
    return f"<qtimetadatafield><fieldlabel>{label}</fieldlabel><fieldentry>{escape(value)}</fieldentry></qtimetadatafield>"


def _full_marks(condition: str) -> str:
    return (f'<respcondition continue="No"><conditionvar>{condition}</conditionvar>'
            '<setvar action="Set" varname="SCORE">100</setvar></respcondition>')


def _text_response(fibtype: str = "") -> str:
    attr = f' fibtype="{fibtype}"' if fibtype else ""
    return (f'<response_str ident="response1" rcardinality="Single"><render_fib{attr}>'
            '<response_label ident="answer1" rshuffle="No"/></render_fib></response_str>')


def _number(value: float) -> str:
    return repr(value) if value != int(value) else str(int(value))




def item_xml(q: QuestionView) -> str:
    part = q.parts[0]
    # each shape's writer: (Canvas question type, the presentation's responses, the scoring, original_answer_ids[,
    # HTML the question text continues with: a fill-in-multiple-blanks question's [blank] marks live in its text])
    kind, response, scoring, answer_ids, *text_after = registry.writer(part, "canvas")(part)
    metadata = (_field("question_type", kind) + _field("points_possible", "1")
                + _field("original_answer_ids", answer_ids) + _field("assessment_question_identifierref", f"bank_{identifier(q)}"))
    title = item_title(q)
    return (f"<item ident=\"{identifier(q)}\" title={quoteattr(title)}>\n"
            f"<itemmetadata><qtimetadata>{metadata}</qtimetadata></itemmetadata>\n"
            f"<presentation>{_mattext(block_html(q.stem_md) + ''.join(text_after))}{response}</presentation>\n"
            '<resprocessing><outcomes><decvar maxvalue="100" minvalue="0" varname="SCORE" vartype="Decimal"/></outcomes>'
            '<respcondition continue="Yes"><conditionvar><other/></conditionvar>'
            f'<displayfeedback feedbacktype="Response" linkrefid="general_fb"/></respcondition>{scoring}</resprocessing>\n'
            f'<itemfeedback ident="general_fb"><flow_mat>{_mattext(feedback_html(q))}</flow_mat></itemfeedback>\n</item>')


def _group(q: QuestionView) -> str:
    """A varied question: a question group (a section, as Canvas exports one) picking 1 of its variants."""
    if not q.variants:
        return item_xml(q)
    items = "\n".join(item_xml(v) for v in variant_items(q))
    return (f'<section ident="g_{identifier(q)}" title={quoteattr(q.id + " (variants)")}>\n<selection_ordering><selection>'
            "<selection_number>1</selection_number><selection_extension><points_per_item>1</points_per_item></selection_extension>"
            f"</selection></selection_ordering>\n{items}\n</section>")


def assessment_xml(view: ExamView, questions: list[QuestionView]) -> str:
    items = "\n".join(_group(q) for q in questions)
    return (f'{HEADER}<questestinterop xmlns="http://www.imsglobal.org/xsd/ims_qtiasiv1p2">\n'
            f"<assessment ident=\"{quiz_id(view)}\" title={quoteattr(view.exam.title)}>\n"
            f"<qtimetadata>{_field('cc_maxattempts', 'unlimited')}</qtimetadata>\n"
            f'<section ident="root_section">\n{items}\n</section>\n</assessment>\n</questestinterop>\n')


def meta_xml(view: ExamView, questions: list[QuestionView]) -> str:
    settings = {"title": view.exam.title, "description": "", "shuffle_answers": "false", "scoring_policy": "keep_highest",
                "hide_results": "", "quiz_type": "practice_quiz", "points_possible": f"{len(questions)}.0",
                "require_lockdown_browser": "false", "show_correct_answers": "true", "anonymous_submissions": "false",
                "could_be_locked": "false", "allowed_attempts": "-1", "one_question_at_a_time": "false",
                "cant_go_back": "false", "available": "false", "one_time_results": "false",
                "show_correct_answers_last_attempt": "false", "only_visible_to_overrides": "false",
                "module_locked": "false"}
    body = "\n".join(f"  <{k}>{escape(v)}</{k}>" for k, v in settings.items())
    return (f'{HEADER}<quiz identifier="{quiz_id(view)}" xmlns="http://canvas.instructure.com/xsd/cccv1p0" '
            'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://canvas.instructure.com/xsd/cccv1p0 '
            f'https://canvas.instructure.com/xsd/cccv1p0.xsd">\n{body}\n</quiz>\n')


def _shown(view: ExamView, quiz: str) -> list:
    """The images the quiz shows (its HTML is escaped text in the XML; the address itself needs no escape)."""
    return [f for f in view.media if images.href(f.path, MEDIA) in quiz]


def _file_id(file) -> str:
    return "media_" + "".join(c if c.isalnum() else "_" for c in file.path)


def manifest_xml(view: ExamView, shown: list | None = None) -> str:
    """Each image a `webcontent` resource of its own under web_resources/, which the quiz depends on."""
    qid = quiz_id(view)
    depends = "".join(f'<dependency identifierref="{_file_id(f)}"/>' for f in shown or [])
    files = "".join(f'    <resource identifier="{_file_id(f)}" type="webcontent" href="{escape(WEB + "/" + images.href(f.path, "relative"))}">'
                    f'<file href="{escape(WEB + "/" + images.href(f.path, "relative"))}"/></resource>\n' for f in shown or [])
    return (f'{HEADER}<manifest identifier="manifest_{view.exam.id}" xmlns="http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1" '
            'xmlns:lom="http://ltsc.ieee.org/xsd/imsccv1p1/LOM/resource" xmlns:imsmd="http://www.imsglobal.org/xsd/imsmd_v1p2" '
            'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1 '
            'http://www.imsglobal.org/xsd/imscp_v1p1.xsd http://ltsc.ieee.org/xsd/imsccv1p1/LOM/resource '
            'http://www.imsglobal.org/profile/cc/ccv1p1/LOM/ccv1p1_lomresource_v1p0.xsd http://www.imsglobal.org/xsd/imsmd_v1p2 '
            'http://www.imsglobal.org/xsd/imsmd_v1p2p2.xsd">\n'
            "  <metadata><schema>IMS Content</schema><schemaversion>1.1.3</schemaversion>"
            f"<imsmd:lom><imsmd:general><imsmd:title><imsmd:string>{escape(view.exam.title)}</imsmd:string></imsmd:title>"
            "</imsmd:general></imsmd:lom></metadata>\n  <organizations/>\n  <resources>\n"
            f'    <resource identifier="{qid}" type="imsqti_xmlv1p2"><file href="{qid}/{qid}.xml"/>'
            f'<dependency identifierref="{qid}_meta"/>{depends}</resource>\n'
            f'    <resource identifier="{qid}_meta" type="associatedcontent/imscc_xmlv1p1/learning-application-resource" '
            f'href="{qid}/assessment_meta.xml"><file href="{qid}/assessment_meta.xml"/></resource>\n{files}  </resources>\n</manifest>\n')


def package_files(view: ExamView, questions: list[QuestionView]) -> dict[str, bytes]:
    qid = quiz_id(view)
    quiz = assessment_xml(view, questions)
    shown = _shown(view, quiz)
    files = {"imsmanifest.xml": manifest_xml(view, shown).encode("utf-8"), "non_cc_assessments/": b"",
             f"{qid}/{qid}.xml": quiz.encode("utf-8"), f"{qid}/assessment_meta.xml": meta_xml(view, questions).encode("utf-8")}
    files.update({f"{WEB}/{images.href(f.path, 'relative')}": f.media_bytes for f in shown})
    return files


def render(ctx: RenderContext) -> list[Path]:
    questions = writable(ctx.view.questions, writers_for("canvas"), "canvas", ctx.warnings, max_parts=1)
    return [write_zip(ctx.out_dir / NAME, package_files(ctx.view, questions), ctx.view.source_date)]
