"""The practice bank of one exam: authored and generated questions in the shape of `schema/bank.py`.

This module decides what the bank says; `pipeline/render/bank.py` only writes it. Lookups (sections,
key points, objective order) are built once per exam, so the cost grows linearly with the content.
"""

from __future__ import annotations

import string
from dataclasses import dataclass

from pipeline.citations.lock import CitationLock
from pipeline.load.content import ExamContent
from pipeline.practice.coverage import make_coverage
from pipeline.practice.generate import SourcedQuestion, authored, generate
from pipeline.text.markdown import to_html, to_inline_html
from pipeline.text.plaintext import shorten, to_plain
from schema.bank import SCHEMA_VERSION, Bank, BankCitation, BankExam, BankOption, BankQuestion, BankSection, SourceRef
from schema.models import KeyPoint, Question, Section


@dataclass(frozen=True)
class _Lookups:
    """What every question needs from the exam, gathered once."""

    content: ExamContent
    sections: dict[int, Section]
    key_points: dict[str, KeyPoint]
    lock: CitationLock


def make_bank(content: ExamContent, lock: CitationLock) -> Bank:
    generation = generate(content)
    lookups = _Lookups(content, {s.number: s for s in content.exam.sections}, content.key_points(), lock)
    questions = [_question(s, lookups) for s in _bank_order(content, authored(content), generation.questions)]
    return Bank(
        schema_version=SCHEMA_VERSION,
        exam=_exam(content),
        questions=questions,
        coverage=make_coverage(content, questions, generation),
    )


def _bank_order(content: ExamContent, authored_questions: list[SourcedQuestion], generated: list[SourcedQuestion]) -> list[SourcedQuestion]:
    """Objectives in outline order; in each, authored questions in source order, then generated ones by id."""
    position = {f.objective.id: i for i, f in enumerate(content.objective_files)}
    generated = sorted(generated, key=lambda s: s.question.id)
    return sorted(authored_questions + generated, key=lambda s: (position[s.objective_id], s.rule is not None))  # stable


def _exam(content: ExamContent) -> BankExam:
    exam = content.exam
    sections = [BankSection(number=s.number, title=s.title, weight=s.weight) for s in sorted(exam.sections, key=lambda s: s.number)]
    return BankExam(id=exam.id, code=exam.code, title=exam.title, vendor=exam.vendor, sections=sections)


def _question(sourced: SourcedQuestion, lookups: _Lookups) -> BankQuestion:
    q, objective = sourced.question, sourced.file.objective
    section = lookups.sections[int(objective.id.split(".")[0])]
    answer = q.answer if q.type == "short_answer" and isinstance(q.answer, str) else None
    return BankQuestion(
        id=q.id, type=q.type, objective=objective.id, section=section.number,
        category_path=[lookups.content.exam.code, f"{section.number} {section.title}", f"{objective.id} {objective.title}"],
        title=shorten(to_plain(q.stem)), stem=q.stem, stem_html=to_html(q.stem), options=options_of(q),
        answer=answer, answer_html=to_html(answer) if answer else None, accepted_answers=list(sourced.accepted_answers),
        explanation=q.explanation, explanation_html=to_html(q.explanation), difficulty=q.difficulty,
        tags=_tags(sourced, lookups.content.exam.id, section.number), key_points=list(q.key_points),
        citations=_citations(q, lookups), source=_source(sourced, lookups.content), generated=sourced.rule or False,
    )


def options_of(q: Question) -> list[BankOption]:
    """Options with ids: a, b, c... by position; true and false for true_false; none for short_answer."""
    if q.type == "true_false":
        return [BankOption(id=str(value).lower(), text=str(value), text_html=str(value), correct=q.answer is value) for value in (True, False)]
    right = set(q.answer) if isinstance(q.answer, list) else {q.answer}
    return [
        BankOption(id=letter, text=text, text_html=to_inline_html(text), correct=text in right)
        for letter, text in zip(string.ascii_lowercase, q.options, strict=False)  # at most 6 options (checks.py)
    ]


def _tags(sourced: SourcedQuestion, exam_id: str, section: int) -> list[str]:
    origin = sourced.rule or "authored"
    return sorted({exam_id, f"section-{section}", f"objective-{sourced.objective_id}", sourced.question.difficulty, origin})


def _citations(q: Question, lookups: _Lookups) -> list[BankCitation]:
    """The quotes of the question's key points, each (url, quote) once, with its check from the lock."""
    seen: set[tuple[str, str]] = set()
    found = []
    for point_id in q.key_points:
        for c in lookups.key_points[point_id].citations:
            if (c.url, c.quote) in seen:
                continue
            seen.add((c.url, c.quote))
            check = lookups.lock.entry(c.url, c.quote)
            found.append(BankCitation(key_point=point_id, url=c.url, title=c.title, publisher=c.publisher, quote=c.quote, status=check.status, checked=check.checked))
    return found


def _source(sourced: SourcedQuestion, content: ExamContent) -> SourceRef:
    # Relative to the exam folder: the same wherever the sources folder lives or whatever it is called.
    return SourceRef(file=sourced.file.path.relative_to(content.folder).as_posix(), line=sourced.file.line_of(sourced.node))
