"""`qti21.zip`: an IMS content package of QTI 2.1 items, one file per question, and a test grouping
them by section and objective.

Layout: `imsmanifest.xml` (one resource per item, and the test depending on all of them),
`assessment.xml` (testPart → section → objective → item refs) and `items/<identifier>.xml`.
Identifiers are NCNames from the question ids (`q_` + id); choice, pair and item identifiers are the
view's (a, b..., true/false, p1/m1, i1...). Shapes become interactions: choices -> choice;
text -> textEntry (fill-ins, accepted answers mapped case-insensitively) or extendedText (a model answer
only: graded by a person); pairs -> match (distractors are extra targets); sequence -> order; numeric ->
a float textEntry scored by a range. Response
processing is written out rather than named by template (some players do not resolve templates);
the explanation and citations are a modal feedback shown after any response. Order is the view's
(shuffle off).
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape, quoteattr

from pipeline.render.lms import text as lms_text
from pipeline.render.lms.package import write_zip
from pipeline.render.lms.text import item_title
from pipeline.render.lms.variants import flattened, variant_items
from pipeline.render.support import writable, writers_for
from pipeline.shapes import registry
from pipeline.text import images
from pipeline.view.model import ExamView, QuestionView

MATH = "mathml"  # formulas as MathML, which QTI 2.1 items may hold (pipeline/text/formulas.py)
MEDIA = "parent"  # items sit in items/, the images in media/ of the package: ../media/<path>
block_html, inline_html, feedback_html = (partial(f, math=MATH, media=MEDIA) for f in (lms_text.block_html, lms_text.inline_html, lms_text.feedback_html))

if TYPE_CHECKING:
    from pipeline.render import RenderContext

NAME = "qti21.zip"
NS = "http://www.imsglobal.org/xsd/imsqti_v2p1"
SCHEMA = f'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="{NS} http://www.imsglobal.org/xsd/qti/qtiv2p1/imsqti_v2p1.xsd"'
HEADER = '<?xml version="1.0" encoding="UTF-8"?>\n'


def identifier(q: QuestionView) -> str:
    """An NCName (a letter first): question ids may start with a digit."""
    return f"q_{q.id}"


def item_href(q: QuestionView) -> str:
    return f"items/{identifier(q)}.xml"


def _number(value: float) -> str:
    return f"{value:.6g}"


def _value(text: str, base_type: str = "") -> str:
    attr = f' baseType="{base_type}"' if base_type else ""
    return f"<value{attr}>{escape(text)}</value>"


def _mapping(entries: list[tuple[str, float]], extra: str = "") -> str:
    rows = "".join(f"<mapEntry mapKey={quoteattr(key)} mappedValue=\"{_number(v)}\"{extra}/>" for key, v in entries)
    return f'<mapping lowerBound="0" upperBound="1" defaultValue="0">{rows}</mapping>'


def _declaration(cardinality: str, base_type: str, correct: list[str], mapping: str = "") -> str:
    values = "".join(_value(v) for v in correct)
    body = (f"<correctResponse>{values}</correctResponse>" if correct else "") + mapping
    return f'<responseDeclaration identifier="RESPONSE" cardinality="{cardinality}" baseType="{base_type}">{body}</responseDeclaration>'


def _range(low: float, high: float) -> str:
    bound = '<{op}><variable identifier="RESPONSE"/><baseValue baseType="float">{value}</baseValue></{op}>'
    test = f"<and>{bound.format(op='gte', value=repr(low))}{bound.format(op='lte', value=repr(high))}</and>"
    return f"<responseCondition><responseIf>{test}{ONE}</responseIf><responseElse>{ZERO}</responseElse></responseCondition>"




def _set_score(expression: str) -> str:
    return f'<setOutcomeValue identifier="SCORE">{expression}</setOutcomeValue>'


ZERO = _set_score('<baseValue baseType="float">0</baseValue>')
ONE = _set_score('<baseValue baseType="float">1</baseValue>')
MAPPED = _set_score('<mapResponse identifier="RESPONSE"/>')
SCORING = {  # the match_correct and map_response templates, written out
    "correct": ('<responseCondition><responseIf><match><variable identifier="RESPONSE"/><correct identifier="RESPONSE"/></match>'
                f"{ONE}</responseIf><responseElse>{ZERO}</responseElse></responseCondition>"),
    "map": ('<responseCondition><responseIf><isNull><variable identifier="RESPONSE"/></isNull>'
            f"{ZERO}</responseIf><responseElse>{MAPPED}</responseElse></responseCondition>"),
}
FEEDBACK = '<setOutcomeValue identifier="FEEDBACK"><baseValue baseType="identifier">general</baseValue></setOutcomeValue>'
OUTCOMES = ('<outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"><defaultValue><value>0</value></defaultValue></outcomeDeclaration>'
            '<outcomeDeclaration identifier="MAXSCORE" cardinality="single" baseType="float"><defaultValue><value>1</value></defaultValue></outcomeDeclaration>'
            '<outcomeDeclaration identifier="FEEDBACK" cardinality="single" baseType="identifier"/>')


def item_xml(q: QuestionView) -> str:
    part = q.parts[0]
    declaration, interaction, processing = registry.writer(part, "qti21")(part)  # each writer returns its response processing
    title = item_title(q)
    return (f'{HEADER}<assessmentItem xmlns="{NS}" {SCHEMA}\n  identifier="{identifier(q)}" title={quoteattr(title)} '
            f'adaptive="false" timeDependent="false">\n  {declaration}\n  {OUTCOMES}\n'
            f'  <itemBody>\n<div class="stem">{block_html(q.stem_md)}</div>\n{interaction}\n  </itemBody>\n'
            f'  <responseProcessing>{processing}{FEEDBACK}</responseProcessing>\n'
            f'  <modalFeedback outcomeIdentifier="FEEDBACK" showHide="show" identifier="general" title="Explanation">'
            f'<div>{feedback_html(q)}</div></modalFeedback>\n</assessmentItem>\n')


def test_xml(view: ExamView, questions: list[QuestionView]) -> str:
    """The exam as an assessmentTest: one section per exam section, holding one per objective."""
    lines = [f'{HEADER}<assessmentTest xmlns="{NS}" {SCHEMA}\n  identifier="t_{view.exam.id}" title={quoteattr(view.exam.title)}>',
             '<testPart identifier="practice" navigationMode="nonlinear" submissionMode="individual">']
    by_objective: dict[str, list[QuestionView]] = {}  # grouped once: objectives x questions would be quadratic
    for q in questions:
        by_objective.setdefault(q.objective, []).append(q)
    for section in view.sections:
        objectives = [o for o in section.objectives if o.id in by_objective]
        if not objectives:
            continue
        lines.append(f'<assessmentSection identifier="s_{section.number}" title={quoteattr(section.heading)} visible="true">')
        for o in objectives:
            lines.append(f'<assessmentSection identifier="o_{o.id}" title={quoteattr(o.heading)} visible="true">')
            lines += [line for q in by_objective[o.id] for line in _refs(q)]
            lines.append("</assessmentSection>")
        lines.append("</assessmentSection>")
    return "\n".join([*lines, "</testPart>", "</assessmentTest>"]) + "\n"


def _refs(q: QuestionView) -> list[str]:
    """A question's item ref; a varied question's variants in a section that selects one of them."""
    if not q.variants:
        return [f'<assessmentItemRef identifier="{identifier(q)}" href="{item_href(q)}"/>']
    refs = [f'<assessmentItemRef identifier="{identifier(v)}" href="{item_href(v)}"/>' for v in variant_items(q)]
    return [f'<assessmentSection identifier="v_{q.id}" title={quoteattr(q.id + " (variants)")} visible="false">',
            '<selection select="1"/>', *refs, "</assessmentSection>"]


def manifest_xml(view: ExamView, questions: list[QuestionView], shown: dict[str, list] | None = None) -> str:
    """`shown`: item id -> the images the item shows, each declared as a file of the item's resource."""
    questions = flattened(questions)  # every item: a varied question's variants
    deps = "".join(f'<dependency identifierref="RES-{identifier(q)}"/>' for q in questions)
    def media(q: QuestionView) -> str:
        return "".join(f'<file href="{escape(images.href(f.path, "relative"))}"/>' for f in (shown or {}).get(q.id, []))
    items = "\n".join(f'    <resource identifier="RES-{identifier(q)}" type="imsqti_item_xmlv2p1" href="{item_href(q)}">'
                      f'<file href="{item_href(q)}"/>{media(q)}</resource>' for q in questions)
    return (f'{HEADER}<manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"\n'
            f'  xsi:schemaLocation="http://www.imsglobal.org/xsd/imscp_v1p1 http://www.imsglobal.org/xsd/imscp_v1p1.xsd" identifier="MANIFEST-{view.exam.id}">\n'
            "  <metadata><schema>QTIv2.1 Package</schema><schemaversion>1.0.0</schemaversion></metadata>\n  <organizations/>\n  <resources>\n"
            f'    <resource identifier="RES-test" type="imsqti_test_xmlv2p1" href="assessment.xml"><file href="assessment.xml"/>{deps}</resource>\n'
            f"{items}\n  </resources>\n</manifest>\n")


def package_files(view: ExamView, questions: list[QuestionView]) -> dict[str, bytes]:
    items = {q.id: item_xml(q) for q in flattened(questions)}
    files = {item_href(q): items[q.id].encode("utf-8") for q in flattened(questions)}
    shown = {q.id: images.shown_in(items[q.id], view.media, MEDIA) for q in flattened(questions)}
    for file in {f.path: f for found in shown.values() for f in found}.values():  # only the images an item shows
        files[images.href(file.path, "relative")] = file.media_bytes
    files["assessment.xml"] = test_xml(view, questions).encode("utf-8")
    files["imsmanifest.xml"] = manifest_xml(view, questions, shown).encode("utf-8")
    return files


def render(ctx: RenderContext) -> list[Path]:
    questions = writable(ctx.view.questions, writers_for("qti21"), "qti21", ctx.warnings, max_parts=1)
    return [write_zip(ctx.out_dir / NAME, package_files(ctx.view, questions), ctx.view.source_date)]
