"""The guide's back matter: the practice exam and its answer key, the glossary and the review dates,
read off the exam view."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from pipeline.render.explained import Explained, explaining_points
from pipeline.shapes import registry
from pipeline.text.plaintext import to_plain
from pipeline.text.slug import slug
from pipeline.view.model import PRACTICE_RULES, ExamView, ObjectiveView, QuestionView

GENERATED_PER_OBJECTIVE = 2  # chosen generated items per objective: enough to vary, few enough not to swamp


@dataclass(frozen=True)
class GlossaryEntry:
    term: str
    definition_md: str
    objective: ObjectiveView  # where the term is defined
    explained: Explained  # where it is explained: its first mention in a key point, else its key terms

    @property
    def where(self) -> ObjectiveView:
        """The objective the glossary sends the reader to."""
        return self.explained.objective

    @property
    def anchor(self) -> str:
        """Where the term is explained: the first key point that mentions it (pipeline/render/explained.py),
        else its entry in the objective's key terms."""
        point = self.explained.point
        return f"kp-{point.id}" if point else term_anchor(self.term)


@dataclass(frozen=True)
class ReviewView:
    what: str  # "Exam objectives page" or "6.1 Efficiency versus accuracy"
    anchor: str | None  # where in the guide it is (None for the exam page)
    reviewed: dt.date
    age_days: int
    stale: bool


@dataclass(frozen=True)
class ExamItem:
    """A question of the mixed practice exam: its number there, and the objective to review."""

    number: int
    question: QuestionView
    objective: ObjectiveView
    review_anchor: str = ""  # where to review: the first key point the question cites, else its objective

    @property
    def key_line(self) -> str:
        """The whole explanation: a reader checking an answer needs why the distractors are wrong too,
        which a first sentence often leaves out (issue 34 item 7: 9 of 41 entries lost it)."""
        return " ".join(to_plain(self.question.explanation_md).split())

    @property
    def answer_text(self) -> str:
        """The answer in a few words: letters, True/False, pairs, an order, the accepted words or the number."""
        return "; ".join(registry.writer(part, "guide")(part) for part in self.question.parts)


def _review_anchor(question: QuestionView, objective: ObjectiveView, points: set[str]) -> str:
    """The anchor of the first key point the question cites that the guide prints, else its objective's."""
    return next((f"kp-{p}" for p in question.key_points if p in points), objective.anchor)


def _mix_key(question_id: str) -> bytes:
    return hashlib.sha256(f"practice-exam\x00{question_id}".encode()).digest()


def _chosen_generated(objective: ObjectiveView) -> list[QuestionView]:
    """At most GENERATED_PER_OBJECTIVE generated items besides those the objective always practises
    (`ObjectiveView.practice`: the matching ones), one per rule first (a term drill, a fill-in...)."""
    ranked = sorted((q for q in objective.generated if q.generated not in PRACTICE_RULES), key=lambda q: _mix_key(q.id))
    firsts = list({q.generated: q for q in reversed(ranked)}.values())  # per rule, its first by rank
    firsts.sort(key=lambda q: _mix_key(q.id))
    return firsts[:GENERATED_PER_OBJECTIVE]


def practice_exam(view: ExamView, keep: Callable[[QuestionView], bool] = lambda q: True, drills: bool = False) -> list[ExamItem]:
    """The authored questions (those held out for mock exams too: the printed exam is a rehearsal like the site's
    mock) and, with `drills` (exam.yaml's mock_exam.drills), the generated matching ones and a few chosen others,
    shuffled across objectives by a hash of their ids (the same order in every build; an edit elsewhere moves
    nothing), numbered 1..N. `keep` leaves out what the guide cannot print."""
    def items(o: ObjectiveView) -> tuple[QuestionView, ...]:
        generated = (*(q for q in o.practice if q.generated), *_chosen_generated(o)) if drills else ()
        return (*o.questions, *generated)

    pool = [(q, o) for o in view.objectives for q in items(o) if keep(q)]
    pool.sort(key=lambda pair: _mix_key(pair[0].id))
    points = {p.id for o in view.objectives for p in o.key_points}
    return [ExamItem(n, q, o, _review_anchor(q, o, points)) for n, (q, o) in enumerate(pool, start=1)]


def first_labs(view: ExamView) -> dict[str, str]:
    """Each lab's address -> the objective that describes it: the first in reading order. A lab listed
    by several objectives is described once; the others point there."""
    first: dict[str, str] = {}
    for objective in view.objectives:
        for lab in objective.labs:
            first.setdefault(lab.url, objective.id)
    return first


def lab_anchor(url: str) -> str:
    return "lab-" + hashlib.sha256(url.encode()).hexdigest()[:10]


def term_anchor(term: str) -> str:
    return f"term-{slug(term)}"


def glossary(view: ExamView) -> list[GlossaryEntry]:
    """Every key term, alphabetical regardless of case (ties keep outline order), with where it is explained."""
    explained = explaining_points(view)
    entries = [GlossaryEntry(t.term, t.definition, o, explained[t.term.casefold()]) for o in view.objectives for t in o.terms]
    return sorted(entries, key=lambda e: e.term.casefold())


def reviews(view: ExamView) -> list[ReviewView]:
    exam = view.exam
    first = ReviewView("Exam objectives page", None, exam.reviewed, view.exam_age_days, view.exam_stale)
    return [first, *(ReviewView(o.heading, o.anchor, o.reviewed, o.age_days, o.stale) for o in view.objectives)]
