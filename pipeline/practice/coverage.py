"""The bank's coverage table: per section and objective, how many questions, terms and quotes there are,
set against the section's weight in the exam, with the gaps an author should fill flagged.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from pipeline.load.content import ExamContent
from pipeline.shapes import registry
from pipeline.shapes.order import LETTERS
from schema.bank import Coverage, DroppedQuestion, Flag, ObjectiveCoverage, SectionCoverage
from schema.models import Objective, Section

if TYPE_CHECKING:  # the view builds coverage from its questions
    from pipeline.view.model import QuestionView


def make_coverage(content: ExamContent, questions: list[QuestionView], dropped: list[DroppedQuestion], notes: list[str]) -> Coverage:
    counts = Counter((q.objective, q.generated is not None) for q in questions)
    per_objective: dict[str, list[QuestionView]] = {}  # grouped once: objectives x questions would be quadratic
    for q in questions:
        per_objective.setdefault(q.objective, []).append(q)
    mix = {o.id: _mix(per_objective.get(o.id, [])) for o in content.objectives}
    by_section: dict[int, list[Objective]] = {}
    for objective in content.objectives:  # already in outline order
        by_section.setdefault(int(objective.id.split(".")[0]), []).append(objective)
    sections = sorted(content.exam.sections, key=lambda s: s.number)
    total_weight = sum(s.weight for s in sections)
    rows = [_section(s, [_objective(o, counts, mix[o.id]) for o in by_section.get(s.number, [])], total_weight, len(questions)) for s in sections]
    return Coverage(
        authored=sum(1 for q in questions if q.generated is None),
        generated=sum(1 for q in questions if q.generated is not None),
        sections=rows,
        dropped=dropped,
        dropped_by_reason=dict(sorted(Counter(d.reason for d in dropped).items())),
        notes=notes,
    )


def _percent(part: int, whole: int) -> float:
    return round(100 * part / whole, 1) if whole else 0.0


def _mix(questions: list[QuestionView]) -> dict[str, dict[str, int]]:
    """Types, difficulties, authored types, and where correct answers of one-answer choices (3+ options) sit
    (numbers stand in numerical order, where the answer's place says nothing: the balance is the others')."""
    parts = [p for q in questions for p in q.parts]
    keys = [k for p in parts if (one_key := registry.hook(p, "one_key")) and (k := one_key(p))]  # the shape says
    singles = [k for k in keys if k.drawn and len(k.letters) >= 3]
    width = max((len(k.letters) for k in singles), default=0)
    positions = Counter(k.letters[k.place] for k in singles)
    return {
        "by_type": dict(sorted(Counter(q.type for q in questions).items())),
        "by_difficulty": dict(sorted(Counter(q.difficulty for q in questions).items())),
        "authored_by_type": dict(sorted(Counter(q.type for q in questions if q.generated is None).items())),
        "answer_positions": {LETTERS[i]: positions[LETTERS[i]] for i in range(width)},
    }


def _objective(objective: Objective, counts: Counter, mix: dict[str, dict[str, int]]) -> ObjectiveCoverage:
    authored, generated = counts[(objective.id, False)], counts[(objective.id, True)]
    quotes = sum(len(point.citations) for point in objective.key_points)
    flags: list[Flag] = []
    if not authored + generated:
        flags.append("no_question")
    elif not authored:
        flags.append("no_authored_question")
    if not quotes:
        flags.append("no_citation")
    return ObjectiveCoverage(id=objective.id, title=objective.title, authored=authored, generated=generated, terms=len(objective.terms),
                             key_points=len(objective.key_points), quotes=quotes, flags=flags, **mix)


def _section(section: Section, objectives: list[ObjectiveCoverage], total_weight: int, total_questions: int) -> SectionCoverage:
    authored, generated = sum(o.authored for o in objectives), sum(o.generated for o in objectives)
    return SectionCoverage(
        number=section.number, title=section.title, weight=section.weight,
        weight_share=_percent(section.weight, total_weight), question_share=_percent(authored + generated, total_questions),
        authored=authored, generated=generated, terms=sum(o.terms for o in objectives), quotes=sum(o.quotes for o in objectives),
        objectives=objectives,
    )
