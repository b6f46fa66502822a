"""`bank.json`: the practice bank, in the shape of `schema/bank.py`, written byte for byte the same for the same sources.

Everything a question says (display order, correct answers, citations and their status) is settled by
the exam view; this module puts it in the bank's shape, with the `_html` twin of each Markdown field.
Sorted keys, two-space indent, UTF-8 without escapes, a newline at the end, and nothing from the clock.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.text.markdown import to_html, to_inline_html
from pipeline.text.plaintext import shorten, to_plain
from pipeline.view.model import CitationView, ExamView, QuestionView
from schema.bank import (
    SCHEMA_VERSION,
    Bank,
    BankChoice,
    BankCitation,
    BankExam,
    BankOption,
    BankPair,
    BankQuestion,
    BankSection,
    SourceRef,
)

if TYPE_CHECKING:  # the registry in pipeline/render/__init__.py imports this module
    from pipeline.render import RenderContext

BANK_NAME = "bank.json"
TYPES = frozenset({"single", "multiple", "true_false", "short_answer", "matching", "ordering"})  # every type: the bank holds all


def make_bank(view: ExamView) -> Bank:
    return Bank(schema_version=SCHEMA_VERSION, exam=_exam(view), questions=[bank_question(q) for q in view.questions], coverage=view.coverage)


def _exam(view: ExamView) -> BankExam:
    exam = view.exam
    sections = [BankSection(number=s.number, title=s.title, weight=s.weight) for s in view.sections]
    return BankExam(id=exam.id, code=exam.code, title=exam.title, vendor=exam.vendor, sections=sections)


def bank_question(q: QuestionView) -> BankQuestion:
    answer = q.answer_md if q.type == "short_answer" else None
    return BankQuestion(
        id=q.id, type=q.type, objective=q.objective, section=q.section, category_path=list(q.category_path),
        title=("Drill: " if q.generated else "") + shorten(to_plain(q.stem_md)), stem=q.stem_md, stem_html=to_html(q.stem_md),
        options=[BankOption(id=o.id, text=o.text_md, text_html=_option_html(q, o.text_md), correct=o.correct) for o in q.options],
        pairs=[BankPair(id=p.id, prompt=p.prompt_md, prompt_html=to_inline_html(p.prompt_md), answer_id=p.answer_id) for p in q.pairs],
        answers=[BankChoice(id=a.id, text=a.text_md, text_html=to_inline_html(a.text_md)) for a in q.answers],
        items=[BankChoice(id=i.id, text=i.text_md, text_html=to_inline_html(i.text_md)) for i in q.items],
        correct_order=list(q.correct_order),
        answer=answer, answer_html=to_html(answer) if answer else None, accepted_answers=list(q.accepted_answers),
        explanation=q.explanation_md, explanation_html=to_html(q.explanation_md), difficulty=q.difficulty, tags=list(q.tags),
        key_points=list(q.key_points), citations=[_citation(c) for c in q.citations],
        source=SourceRef(file=q.source_file, line=q.source_line), generated=q.generated or False,
    )


def _option_html(q: QuestionView, text: str) -> str:
    return text if q.type == "true_false" else to_inline_html(text)


def _citation(c: CitationView) -> BankCitation:
    return BankCitation(key_point=c.key_point, url=c.url, title=c.title, publisher=c.publisher, quote=c.quote, status=c.status, checked=c.checked)


def bank_json(bank: Bank) -> str:
    return json.dumps(bank.model_dump(mode="json"), indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def render(ctx: RenderContext) -> list[Path]:
    path = ctx.out_dir / BANK_NAME
    path.write_bytes(bank_json(make_bank(ctx.view)).encode("utf-8"))  # bytes: no newline translation
    return [path]
