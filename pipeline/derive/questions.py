"""Questions in the view: display order, correct answers and citations, by the rules of each type."""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.derive.citations import Citations
from pipeline.questions import type_of
from pipeline.questions.matching import answer_texts
from pipeline.shapes.order import LETTERS, display_order, numeric_order
from pipeline.view.model import ItemView, OptionView, PairView, QuestionView
from schema.models import Question


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
    accepted: tuple[str, ...] = ()


def question_view(q: Question, origin: Origin, citations: Citations) -> QuestionView:
    kind = type_of(q.type)
    choices = kind.choices(q)
    numeric = numeric_order([c.text_md for c in choices]) if q.type in ("single", "multiple") else None
    if numeric is not None:
        shown = [choices[i] for i in numeric]
    else:
        shown = display_order(q.id, choices, [c.correct for c in choices], shuffle=q.shuffle and q.type != "true_false", multiple=q.type == "multiple")
    return QuestionView(
        option_order="numeric" if numeric is not None else ("shuffled" if q.shuffle and len(choices) > 1 and q.type != "true_false" else "as written"),
        id=q.id, type=q.type, objective=origin.objective, section=origin.section, number=origin.number, stem_md=q.stem,
        options=tuple(OptionView(c.id, c.text_md, c.correct, LETTERS[i]) for i, c in enumerate(shown)),
        answer_md=kind.answer_md(q), accepted_answers=origin.accepted or kind.accepted(q), explanation_md=q.explanation,
        difficulty=q.difficulty, key_points=tuple(q.key_points), citations=citations.behind(q.key_points),
        category_path=origin.category_path, source_file=origin.source_file, source_line=origin.source_line,
        generated=origin.generated, tags=_tags(q, origin), **_type_parts(q),
    )


def _tags(q: Question, origin: Origin) -> tuple[str, ...]:
    return tuple(sorted({origin.exam_id, f"section-{origin.section}", f"objective-{origin.objective}", q.difficulty, origin.generated or "authored"}))


def _type_parts(q: Question) -> dict:
    """Matching: pairs and answers (shown shuffled); ordering: items shown shuffled, their correct order by id."""
    if q.type == "matching":
        answers = [ItemView(f"m{i}", text, LETTERS[0]) for i, text in enumerate(answer_texts(q), start=1)]
        shown = display_order(f"{q.id}#answers", answers, [False] * len(answers), shuffle=q.shuffle)
        pairs = tuple(PairView(f"p{i}", p.prompt, f"m{i}") for i, p in enumerate(q.pairs, start=1))
        return {"pairs": pairs, "answers": tuple(ItemView(a.id, a.text_md, LETTERS[i]) for i, a in enumerate(shown))}
    if q.type == "ordering":
        items = [ItemView(f"i{i}", text, "") for i, text in enumerate(q.items, start=1)]
        shown = _not_in_order(q, items)
        return {"items": tuple(ItemView(it.id, it.text_md, LETTERS[i]) for i, it in enumerate(shown)),
                "correct_order": tuple(it.id for it in items)}
    return {}


def _not_in_order(q: Question, items: list[ItemView]) -> list[ItemView]:
    """A shuffle that does not happen to show the correct order (that would answer the question)."""
    for attempt in range(16):
        shown = display_order(f"{q.id}#{attempt}" if attempt else q.id, items, [False] * len(items), shuffle=q.shuffle)
        if shown != items or not q.shuffle:
            return shown
    return items[1:] + items[:1]
