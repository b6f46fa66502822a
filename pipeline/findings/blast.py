"""The blast radius of a citation that is not `found`: everything a learner sees that leans on its quote.

For each such citation, grouped by the objective that cites it: the key points citing it; the questions
backed by those key points, authored and generated (from the exam view, `pipeline.view`, where generated
questions inherit their key points' citations); the Anki notes carrying them (GUID and deck); the study guide's
places (the objective's anchor and title: an anchor survives a reflow, a page number does not); and the
site's pages. Where each output puts an item is asked of the output registry (`Output.places`), so this
module imports no renderer. The author sees at once what to re-check.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pipeline import render as registry
from pipeline.citations.audit import AuditResult, CitationRef
from pipeline.derive import build_view
from pipeline.load.content import ExamContent
from pipeline.view import QuestionView

if TYPE_CHECKING:  # the value's shape only: the reader (pipeline/settings/reader.py) sits above this stage
    from pipeline.inputs.value import ExamInputs


@dataclass(frozen=True)
class Blast:
    """One citation that is not found, in one objective, and what depends on it."""

    exam: str
    objective: str  # id
    objective_title: str
    url: str
    quote: str
    status: str
    where: str  # file:line of the (first) quote
    key_points: tuple[str, ...]
    questions: tuple[str, ...]  # authored
    generated: tuple[str, ...]  # generated questions (bank ids)
    notes: tuple[tuple[str, str], ...]  # (GUID, deck name)
    guide: tuple[str, ...]  # study-guide.pdf#objective-<id>, one per objective shown
    site: tuple[str, ...]  # site/objective-<id>.html pages

    def counts(self) -> dict[str, int]:
        return {"key points": len(self.key_points), "questions": len(self.questions), "generated questions": len(self.generated),
                "deck notes": len(self.notes), "guide places": len(self.guide), "site pages": len(self.site)}


@dataclass(frozen=True)
class _ExamIndex:
    content: ExamContent
    titles: dict[str, str]  # objective id -> title
    questions: dict[str, list[QuestionView]]  # key point id -> the questions it backs
    notes: dict[tuple[str, str], tuple[str, str]]  # ("key-point"|"question", id) -> (guid, deck)
    guide: dict[tuple[str, str], tuple[str, ...]]  # ("objective", id) -> the guide's places
    site: dict[tuple[str, str], tuple[str, ...]]  # ("objective", id) -> the site's pages

    @classmethod
    def of(cls, inputs: ExamInputs) -> _ExamIndex:
        content = inputs.content
        view = build_view(inputs)  # the lock only adds statuses: the lock before the audit gives the same items
        by_point: dict[str, list[QuestionView]] = defaultdict(list)
        for question in view.questions:
            for point in dict.fromkeys(question.key_points):
                by_point[point].append(question)
        notes = {key: found[0] for key, found in registry.places("deck", view).items()}
        return cls(content, {o.id: o.title for o in view.objectives}, by_point, notes, registry.places("guide", view), registry.places("site", view))


def blast_radius(result: AuditResult, inputs: Callable[[ExamContent], ExamInputs]) -> list[Blast]:
    """One `Blast` per (exam, objective, citation) not found, in source order. `inputs` gives an exam's inputs
    (the command line's reader), asked only for the exams with a problem."""
    groups: dict[tuple[str, str, str, str], list[CitationRef]] = defaultdict(list)
    statuses = {}
    for ref, citation in result.problems:
        key = (ref.exam.exam.id, ref.objective_id, ref.url, ref.quote)
        groups[key].append(ref)
        statuses[key] = citation.status.value
    indexes: dict[str, _ExamIndex] = {}
    blasts = []
    for key, refs in groups.items():
        index = indexes.get(key[0]) or indexes.setdefault(key[0], _ExamIndex.of(inputs(refs[0].exam)))
        blasts.append(_blast(index, refs, statuses[key]))
    return sorted(blasts, key=lambda b: b.where)


def _blast(index: _ExamIndex, refs: list[CitationRef], status: str) -> Blast:
    first = refs[0]
    points = tuple(dict.fromkeys(ref.key_point_id for ref in refs))
    questions = list({q.id: q for p in points for q in index.questions.get(p, [])}.values())
    authored = tuple(q.id for q in questions if not q.generated)
    items = [("key-point", p) for p in points] + [("question", q) for q in authored]
    objectives = list(dict.fromkeys([first.objective_id] + [q.objective for q in questions]))
    return Blast(
        first.exam.exam.id, first.objective_id, index.titles.get(first.objective_id, ""), first.url, first.quote, status,
        f"{first.place.file}:{first.place.position.line}", points, authored, tuple(q.id for q in questions if q.generated),
        tuple(index.notes[item] for item in items if item in index.notes),
        tuple(p for o in objectives for p in index.guide.get(("objective", o), ())),
        tuple(p for o in objectives for p in index.site.get(("objective", o), ())),
    )
