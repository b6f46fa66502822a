"""The body of the guide as a reader meets it: sections, and per objective its key points with their
call-outs, terms, worked examples, labs and practice questions (without their answers).

Text stays Markdown here (`*_md` fields); the templates turn it into HTML through pipeline/text/markdown.py.
Cloze marks are removed: the guide shows the phrase a card would hide.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from pipeline.load.content import ExamContent
from pipeline.render.guide.citations import QuoteView, References
from pipeline.render.pages import objective_anchor
from pipeline.text import cloze
from schema.models import Example, KeyPoint, Lab, Objective, Question, Section, Term

LETTERS = "ABCDEF"  # a question has at most 6 options (pipeline/check/rules.py)

PROMPTS = {
    "single": "Choose one.",
    "multiple": "Choose all that apply.",
    "true_false": "True or false?",
    "short_answer": "Answer in a sentence or two.",
}


@dataclass(frozen=True)
class Callout:
    """One "What <publisher> says" box: the quotes behind a key point from one publisher."""

    speaker: str
    quotes: tuple[QuoteView, ...]


@dataclass(frozen=True)
class KeyPointView:
    id: str
    text_md: str
    callouts: tuple[Callout, ...]


@dataclass(frozen=True)
class QuestionView:
    id: str
    label: str  # "Q3": its number within the objective
    type: str
    prompt: str
    stem_md: str
    options: tuple[tuple[str, str], ...]  # (letter, option text)
    difficulty: str


@dataclass(frozen=True)
class ObjectiveView:
    id: str
    title: str
    summary_md: str
    reviewed: dt.date
    stale: bool
    key_points: tuple[KeyPointView, ...]
    terms: tuple[Term, ...]
    examples: tuple[Example, ...]
    labs: tuple[Lab, ...]
    questions: tuple[QuestionView, ...]

    @property
    def heading(self) -> str:
        return f"{self.id} {self.title}"

    @property
    def anchor(self) -> str:
        return objective_anchor(self.id)


@dataclass(frozen=True)
class SectionView:
    number: int
    title: str
    weight: int
    objectives: tuple[ObjectiveView, ...]

    @property
    def anchor(self) -> str:
        return f"section-{self.number}"


def is_stale(reviewed: dt.date, content: ExamContent, today: dt.date) -> bool:
    """Older than the review policy allows, on the build's source date (the rule of pipeline/check/rules.py)."""
    return (today - reviewed).days > content.exam.review_policy.max_age_days


def callouts(point: KeyPoint, vendor: str, refs: References) -> tuple[Callout, ...]:
    """The point's quotes grouped by publisher, in the order they are cited (the exam's vendor by default)."""
    groups: dict[str, list[QuoteView]] = {}
    for citation in point.citations:
        groups.setdefault(citation.publisher or vendor, []).append(refs.quote(citation))
    return tuple(Callout(speaker, tuple(quotes)) for speaker, quotes in groups.items())


def question_view(question: Question, number: int) -> QuestionView:
    options = tuple(zip(LETTERS, question.options, strict=False))
    return QuestionView(question.id, f"Q{number}", question.type, PROMPTS[question.type], question.stem, options, question.difficulty)


def objective_view(objective: Objective, content: ExamContent, refs: References, today: dt.date) -> ObjectiveView:
    vendor = content.exam.vendor
    points = tuple(KeyPointView(p.id, cloze.strip(p.text), callouts(p, vendor, refs)) for p in objective.key_points)
    questions = tuple(question_view(q, n) for n, q in enumerate(objective.questions, start=1))
    return ObjectiveView(
        objective.id, objective.title, objective.summary, objective.reviewed, is_stale(objective.reviewed, content, today),
        points, tuple(objective.terms), tuple(objective.examples), tuple(objective.labs), questions,
    )


def section_views(content: ExamContent, refs: References, today: dt.date) -> list[SectionView]:
    """Sections in the exam's order, each with its objectives in outline order."""
    return [section_view(s, content, refs, today) for s in content.exam.sections]


def section_view(section: Section, content: ExamContent, refs: References, today: dt.date) -> SectionView:
    objectives = tuple(objective_view(o, content, refs, today) for o in content.objectives_in(section))
    return SectionView(section.number, section.title, section.weight, objectives)
