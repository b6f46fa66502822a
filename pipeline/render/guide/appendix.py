"""The guide's back matter: the answer key, the glossary and the review dates, read off the exam view."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from pipeline.view.model import ExamView, ObjectiveView, QuestionView


@dataclass(frozen=True)
class AnswerGroup:
    objective: ObjectiveView
    answers: tuple[QuestionView, ...]


@dataclass(frozen=True)
class GlossaryEntry:
    term: str
    definition_md: str
    objective: ObjectiveView


@dataclass(frozen=True)
class ReviewView:
    what: str  # "Exam objectives page" or "6.1 Efficiency versus accuracy"
    anchor: str | None  # where in the guide it is (None for the exam page)
    reviewed: dt.date
    age_days: int
    stale: bool


def answer_groups(view: ExamView) -> list[AnswerGroup]:
    """The answers of the questions each objective practises, objective by objective."""
    return [AnswerGroup(o, o.practice) for o in view.objectives if o.practice]


def glossary(view: ExamView) -> list[GlossaryEntry]:
    """Every key term, alphabetical regardless of case (ties keep outline order)."""
    entries = [GlossaryEntry(t.term, t.definition, o) for o in view.objectives for t in o.terms]
    return sorted(entries, key=lambda e: e.term.casefold())


def reviews(view: ExamView) -> list[ReviewView]:
    exam = view.exam
    first = ReviewView("Exam objectives page", None, exam.reviewed, view.exam_age_days, view.exam_stale)
    return [first, *(ReviewView(o.heading, o.anchor, o.reviewed, o.age_days, o.stale) for o in view.objectives)]
