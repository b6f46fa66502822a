"""The guide's back matter: the answer key, the glossary and the review dates.

The answer key gives each question's answer, its explanation and the quotes behind it: a question
names the key points that back it, and those key points' citations are its evidence.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from pipeline.load.content import ExamContent
from pipeline.render.guide.citations import QuoteView, References
from pipeline.render.guide.objectives import LETTERS, ObjectiveView, QuestionView, is_stale
from schema.models import Question


@dataclass(frozen=True)
class AnswerView:
    question: QuestionView
    choices: tuple[tuple[str, str], ...]  # (letter, text) of the correct options; empty for other types
    answer_md: str  # true_false: "True"/"False"; short_answer: the model answer; else ""
    explanation_md: str
    evidence: tuple[QuoteView, ...]


@dataclass(frozen=True)
class AnswerGroup:
    objective: ObjectiveView
    answers: tuple[AnswerView, ...]


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


def correct_choices(question: Question) -> tuple[tuple[str, str], ...]:
    if question.type not in ("single", "multiple"):
        return ()
    correct = question.answer if isinstance(question.answer, list) else [question.answer]
    return tuple((letter, text) for letter, text in zip(LETTERS, question.options, strict=False) if text in correct)


def plain_answer(question: Question) -> str:
    if isinstance(question.answer, bool):
        return "True" if question.answer else "False"
    return question.answer if question.type == "short_answer" else ""


def evidence(question: Question, content: ExamContent, refs: References) -> tuple[QuoteView, ...]:
    """The citations of the key points the question names, each quote once."""
    points = content.key_points()
    citations = [c for kp_id in question.key_points if kp_id in points for c in points[kp_id].citations]
    unique = {(c.url, c.quote): c for c in citations}
    return tuple(refs.quote(c) for c in unique.values())


def answer_groups(views: list[ObjectiveView], content: ExamContent, refs: References) -> list[AnswerGroup]:
    questions = {q.id: q for _, q in content.questions()}
    return [
        AnswerGroup(view, tuple(answer_view(qv, questions[qv.id], content, refs) for qv in view.questions))
        for view in views
        if view.questions
    ]


def answer_view(view: QuestionView, question: Question, content: ExamContent, refs: References) -> AnswerView:
    return AnswerView(view, correct_choices(question), plain_answer(question), question.explanation, evidence(question, content, refs))


def glossary(views: list[ObjectiveView]) -> list[GlossaryEntry]:
    """Every key term, alphabetical regardless of case (ties keep outline order)."""
    entries = [GlossaryEntry(t.term, t.definition, view) for view in views for t in view.terms]
    return sorted(entries, key=lambda e: e.term.casefold())


def reviews(views: list[ObjectiveView], content: ExamContent, today: dt.date) -> list[ReviewView]:
    exam = content.exam
    first = ReviewView("Exam objectives page", None, exam.reviewed, (today - exam.reviewed).days, is_stale(exam.reviewed, content, today))
    return [first, *(ReviewView(v.heading, v.anchor, v.reviewed, (today - v.reviewed).days, v.stale) for v in views)]
