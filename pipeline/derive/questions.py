"""Questions in the view: each type's parts (display order, correct answers), its answer text and prompt,
and the citations behind it."""

from __future__ import annotations

from dataclasses import dataclass, replace

from pipeline.derive.citations import Citations
from pipeline.questions import QuestionBase, type_of
from pipeline.variants.made import Variant
from pipeline.view.model import QuestionView, VariantView


@dataclass(frozen=True)
class Origin:
    """Where a question sits: its objective, section, number, source place and generating rule."""

    objective: str
    section: int
    number: int
    category_path: tuple[str, ...]
    source_file: str
    source_line: int
    generated: str | None
    exam_id: str


def question_view(q: QuestionBase, origin: Origin, citations: Citations) -> QuestionView:
    kind = type_of(q.type)
    parts = kind.parts(q)
    return QuestionView(
        id=q.id, type=q.type, objective=origin.objective, section=origin.section, number=origin.number, stem_md=q.stem,
        prompt=kind.prompt_for(q), parts=parts, answer_md=kind.answer_text(q, parts), scoring=kind.scoring,
        explanation_md=q.explanation, difficulty=q.difficulty, key_points=tuple(q.key_points), citations=citations.behind(q.key_points),
        category_path=origin.category_path, source_file=origin.source_file, source_line=origin.source_line,
        generated=origin.generated, tags=_tags(q, origin), mock_only=q.mock_only,
    )


def _tags(q: QuestionBase, origin: Origin) -> tuple[str, ...]:
    return tuple(sorted({origin.exam_id, f"section-{origin.section}", f"objective-{origin.objective}", q.difficulty, origin.generated or "authored"}))


def varied_view(q: QuestionBase, made: list[Variant], origin: Origin, citations: Citations) -> QuestionView:
    """A varied question: variant 1's view under the question's id, carrying every variant and the template."""
    variants = tuple(VariantView(m.index, m.seed, dict(m.values), replace(question_view(m.question, origin, citations), id=q.id)) for m in made)
    template = q.model_dump(mode="json", by_alias=True)
    return replace(variants[0].question, variants=variants, template=template)
