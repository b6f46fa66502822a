"""`bank.json`: the practice bank, in the shape of `schema/bank.py`, written byte for byte the same for the same sources.

Everything a question says (display order, correct answers, citations and their status) is settled by
the exam view; this module puts it in the bank's shape, with the `_html` twin of each Markdown field.
Sorted keys, two-space indent, UTF-8 without escapes, a newline at the end, and nothing from the clock.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.shapes import registry
from pipeline.shapes.parts import Part
from pipeline.text import images
from pipeline.text.markdown import to_html, to_inline_html
from pipeline.text.plaintext import shorten, to_plain
from pipeline.view.fingerprint import content_hash
from pipeline.view.model import CitationView, ExamView, QuestionView, VariantView
from schema.bank import (
    SCHEMA_VERSION,
    Bank,
    BankChoice,
    BankCitation,
    BankExam,
    BankMedia,
    BankQuestion,
    BankSection,
    BankVariant,
    SourceRef,
)

if TYPE_CHECKING:  # the registry in pipeline/render/__init__.py imports this module
    from pipeline.render import RenderContext

BANK_NAME = "bank.json"


def make_bank(view: ExamView) -> Bank:
    return Bank(schema_version=SCHEMA_VERSION, exam=_exam(view), questions=[bank_question(q) for q in view.questions], coverage=view.coverage,
                media=[_media(m) for m in view.media])


def _media(file) -> BankMedia:
    return BankMedia(path=images.href(file.path, "relative"), sha256=file.sha256, media_type=file.media_type, size=file.size,
                     width=file.width, height=file.height, alt=file.alt)


def _exam(view: ExamView) -> BankExam:
    exam = view.exam
    sections = [BankSection(number=s.number, title=s.title, weight=s.weight) for s in view.sections]
    return BankExam(id=exam.id, code=exam.code, title=exam.title, vendor=exam.vendor, sections=sections)


def bank_question(q: QuestionView) -> BankQuestion:
    return BankQuestion(
        id=q.id, type=q.type, prompt=q.prompt, objective=q.objective, section=q.section, category_path=list(q.category_path),
        title=("Drill: " if q.generated else "") + shorten(to_plain(q.stem_md)), stem=q.stem_md, stem_html=to_html(q.stem_md), parts=[bank_part(p) for p in q.parts],
        answer=q.answer_md, answer_html=to_html(q.answer_md), scoring=q.scoring,
        explanation=q.explanation_md, explanation_html=to_html(q.explanation_md), difficulty=q.difficulty, tags=list(q.tags),
        key_points=list(q.key_points), citations=[_citation(c) for c in q.citations],
        source=SourceRef(file=q.source_file, line=q.source_line), generated=q.generated or False, mock_only=q.mock_only,
        content_hash=content_hash(q), template=dict(q.template) if q.template is not None else None,
        variants=[_variant(v) for v in q.variants] if q.variants else None,
    )


def _variant(v: VariantView) -> BankVariant:
    q = v.question
    return BankVariant(index=v.index, seed=v.seed, values=dict(v.values), stem=q.stem_md, stem_html=to_html(q.stem_md),
                       parts=[bank_part(p) for p in q.parts], answer=q.answer_md, answer_html=to_html(q.answer_md),
                       explanation=q.explanation_md, explanation_html=to_html(q.explanation_md), content_hash=content_hash(q))


def _choice(item) -> BankChoice:
    return BankChoice(id=item.id, letter=item.letter, text=item.text_md, text_html=to_inline_html(item.text_md))


def bank_part(part: Part):
    """The part's entry in bank.json, by its shape's writer (pipeline/shapes/registry.py): every shape has one,
    and a part of an unknown shape stops the build (UnknownShape), never a KeyError or a missing entry."""
    return registry.writer(part, "bank")(part)


def _citation(c: CitationView) -> BankCitation:
    return BankCitation(key_point=c.key_point, url=c.url, title=c.title, publisher=c.publisher, quote=c.quote, status=c.status, checked=c.checked)


def bank_json(bank: Bank) -> str:
    return json.dumps(bank.model_dump(mode="json"), indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def render(ctx: RenderContext) -> list[Path]:
    path = ctx.out_dir / BANK_NAME
    path.write_bytes(bank_json(make_bank(ctx.view)).encode("utf-8"))  # bytes: no newline translation
    written = [path]
    for file in ctx.view.media:  # beside bank.json, where the `_html` fields' media/<path> points
        copy = ctx.out_dir / images.href(file.path, "relative")
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_bytes(file.media_bytes)
        written.append(copy)
    return written
