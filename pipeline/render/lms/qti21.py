"""`qti21.zip`: an IMS content package of QTI 2.1 items, one file per question, and a test grouping
them by section and objective.

Layout: `imsmanifest.xml` (one resource per item, and the test depending on all of them),
`assessment.xml` (testPart → section → objective → item refs) and `items/<identifier>.xml`.
Identifiers are NCNames from the question ids (`q_` + id); choice, pair and item identifiers are the
view's (a, b..., true/false, p1/m1, i1...). Interactions: choice (single, multiple, true/false),
textEntry (fill-ins, accepted answers mapped case-insensitively), extendedText (short answers with a
model answer: graded by a person), match (distractors are extra targets) and order. Response
processing is written out rather than named by template (some players do not resolve templates);
the explanation and citations are a modal feedback shown after any response. Order is the view's
(shuffle off).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape, quoteattr

from pipeline.render.lms import exportable, kind
from pipeline.render.lms.package import write_zip
from pipeline.render.lms.text import block_html, feedback_html, inline_html, item_title
from pipeline.view.model import ExamView, QuestionView

if TYPE_CHECKING:
    from pipeline.render import RenderContext

NAME = "qti21.zip"
TYPES = frozenset({"single", "multiple", "true_false", "short_answer", "matching", "ordering"})
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


def _choice_parts(q: QuestionView) -> tuple[str, str, str]:
    choices = "".join(f"<simpleChoice identifier=\"{o.id}\">{inline_html(o.text_md)}</simpleChoice>"
                      for o in q.options)
    correct = [o.id for o in q.correct_options]
    if q.type != "multiple":
        interaction = f'<choiceInteraction responseIdentifier="RESPONSE" shuffle="false" maxChoices="1">{choices}</choiceInteraction>'
        return _declaration("single", "identifier", correct), interaction, "correct"
    wrong = len(q.options) - len(correct)
    mapping = _mapping([(o.id, 1 / len(correct) if o.correct else -1 / wrong) for o in q.options])
    interaction = f'<choiceInteraction responseIdentifier="RESPONSE" shuffle="false" maxChoices="0">{choices}</choiceInteraction>'
    return _declaration("multiple", "identifier", correct, mapping), interaction, "map"


def _fill_in_parts(q: QuestionView) -> tuple[str, str, str]:
    mapping = _mapping([(a, 1.0) for a in q.accepted_answers], ' caseSensitive="false"')
    length = max(len(a) for a in q.accepted_answers) + 5
    interaction = f'<p><textEntryInteraction responseIdentifier="RESPONSE" expectedLength="{length}"/></p>'
    return _declaration("single", "string", list(q.accepted_answers[:1]), mapping), interaction, "map"


def _essay_parts(q: QuestionView) -> tuple[str, str, str]:
    interaction = '<extendedTextInteraction responseIdentifier="RESPONSE" expectedLines="10"/>'
    return _declaration("single", "string", []), interaction, "none"


def _matching_parts(q: QuestionView) -> tuple[str, str, str]:
    sources = "".join(f'<simpleAssociableChoice identifier="{p.id}" matchMax="1">{inline_html(p.prompt_md)}</simpleAssociableChoice>' for p in q.pairs)
    targets = "".join(f'<simpleAssociableChoice identifier="{a.id}" matchMax="1">{inline_html(a.text_md)}</simpleAssociableChoice>' for a in q.answers)
    pairs = [f"{p.id} {p.answer_id}" for p in q.pairs]
    interaction = (f'<matchInteraction responseIdentifier="RESPONSE" shuffle="false" maxAssociations="{len(q.pairs)}">'
                   f"<simpleMatchSet>{sources}</simpleMatchSet><simpleMatchSet>{targets}</simpleMatchSet></matchInteraction>")
    return _declaration("multiple", "directedPair", pairs, _mapping([(p, 1 / len(pairs)) for p in pairs])), interaction, "map"


def _ordering_parts(q: QuestionView) -> tuple[str, str, str]:
    choices = "".join(f'<simpleChoice identifier="{i.id}">{inline_html(i.text_md)}</simpleChoice>' for i in q.items)
    interaction = f'<orderInteraction responseIdentifier="RESPONSE" shuffle="false">{choices}</orderInteraction>'
    return _declaration("ordered", "identifier", list(q.correct_order)), interaction, "correct"


PARTS = {"single": _choice_parts, "multiple": _choice_parts, "true_false": _choice_parts, "fill_in": _fill_in_parts,
         "essay": _essay_parts, "matching": _matching_parts, "ordering": _ordering_parts}


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
    "none": "",
}
FEEDBACK = '<setOutcomeValue identifier="FEEDBACK"><baseValue baseType="identifier">general</baseValue></setOutcomeValue>'
OUTCOMES = ('<outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"><defaultValue><value>0</value></defaultValue></outcomeDeclaration>'
            '<outcomeDeclaration identifier="MAXSCORE" cardinality="single" baseType="float"><defaultValue><value>1</value></defaultValue></outcomeDeclaration>'
            '<outcomeDeclaration identifier="FEEDBACK" cardinality="single" baseType="identifier"/>')


def item_xml(q: QuestionView) -> str:
    declaration, interaction, scoring = PARTS[kind(q)](q)
    title = item_title(q)
    return (f'{HEADER}<assessmentItem xmlns="{NS}" {SCHEMA}\n  identifier="{identifier(q)}" title={quoteattr(title)} '
            f'adaptive="false" timeDependent="false">\n  {declaration}\n  {OUTCOMES}\n'
            f'  <itemBody>\n<div class="stem">{block_html(q.stem_md)}</div>\n{interaction}\n  </itemBody>\n'
            f'  <responseProcessing>{SCORING[scoring]}{FEEDBACK}</responseProcessing>\n'
            f'  <modalFeedback outcomeIdentifier="FEEDBACK" showHide="show" identifier="general" title="Explanation">'
            f'<div>{feedback_html(q)}</div></modalFeedback>\n</assessmentItem>\n')


def test_xml(view: ExamView, questions: list[QuestionView]) -> str:
    """The exam as an assessmentTest: one section per exam section, holding one per objective."""
    lines = [f'{HEADER}<assessmentTest xmlns="{NS}" {SCHEMA}\n  identifier="t_{view.exam.id}" title={quoteattr(view.exam.title)}>',
             '<testPart identifier="practice" navigationMode="nonlinear" submissionMode="individual">']
    for section in view.sections:
        objectives = [o for o in section.objectives if any(q.objective == o.id for q in questions)]
        if not objectives:
            continue
        lines.append(f'<assessmentSection identifier="s_{section.number}" title={quoteattr(section.heading)} visible="true">')
        for o in objectives:
            lines.append(f'<assessmentSection identifier="o_{o.id}" title={quoteattr(o.heading)} visible="true">')
            lines += [f'<assessmentItemRef identifier="{identifier(q)}" href="{item_href(q)}"/>' for q in questions if q.objective == o.id]
            lines.append("</assessmentSection>")
        lines.append("</assessmentSection>")
    return "\n".join([*lines, "</testPart>", "</assessmentTest>"]) + "\n"


def manifest_xml(view: ExamView, questions: list[QuestionView]) -> str:
    deps = "".join(f'<dependency identifierref="RES-{identifier(q)}"/>' for q in questions)
    items = "\n".join(f'    <resource identifier="RES-{identifier(q)}" type="imsqti_item_xmlv2p1" href="{item_href(q)}">'
                      f'<file href="{item_href(q)}"/></resource>' for q in questions)
    return (f'{HEADER}<manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"\n'
            f'  xsi:schemaLocation="http://www.imsglobal.org/xsd/imscp_v1p1 http://www.imsglobal.org/xsd/imscp_v1p1.xsd" identifier="MANIFEST-{view.exam.id}">\n'
            "  <metadata><schema>QTIv2.1 Package</schema><schemaversion>1.0.0</schemaversion></metadata>\n  <organizations/>\n  <resources>\n"
            f'    <resource identifier="RES-test" type="imsqti_test_xmlv2p1" href="assessment.xml"><file href="assessment.xml"/>{deps}</resource>\n'
            f"{items}\n  </resources>\n</manifest>\n")


def package_files(view: ExamView, questions: list[QuestionView]) -> dict[str, bytes]:
    files = {item_href(q): item_xml(q).encode("utf-8") for q in questions}
    files["assessment.xml"] = test_xml(view, questions).encode("utf-8")
    files["imsmanifest.xml"] = manifest_xml(view, questions).encode("utf-8")
    return files


def render(ctx: RenderContext) -> list[Path]:
    questions = exportable(ctx.view.questions, TYPES, "qti21", {}, ctx.warnings)
    return [write_zip(ctx.out_dir / NAME, package_files(ctx.view, questions), ctx.view.source_date)]
