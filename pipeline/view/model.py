"""The shapes of the exam view: plain frozen dataclasses holding Markdown and plain text, never HTML.

Names say what a text is: `*_md` is Markdown from the sources (a renderer turns it into its format
through pipeline/text/markdown.py or escapes it); everything else is plain text or data.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from pipeline.shapes.parts import Part
from schema.citation_status import LABELS, Status
from schema.example_status import LABELS as EXAMPLE_LABELS
from schema.example_status import ExampleStatus
from schema.models import Exam, Lab, Term

PRACTICE_RULES = frozenset({"matching"})


@dataclass(frozen=True)
class CitationView:
    """A quote with its page, its publisher and its last check (from the citation lock)."""

    key_point: str  # the key point the quote backs
    url: str
    title: str
    quote: str
    speaker: str  # who says it: the citation's publisher, else the exam's vendor ("What NVIDIA says")
    publisher: str | None  # the citation's own publisher field (None: the exam's vendor)
    status: Status
    checked: dt.date | None
    ref: int  # the page's number in the references, by first citation in reading order
    archive_url: str | None = None  # where the quote was found when the live page failed (status archived)
    archive_date: dt.date | None = None

    @property
    def label(self) -> str:
        return LABELS[self.status]

    @property
    def status_text(self) -> str:
        """"found on the page, 2026-11-20", "archived copy of 2024-05-01" or "not yet checked"."""
        if self.status is Status.ARCHIVED and self.archive_date:
            return f"archived copy of {self.archive_date.isoformat()}"
        return f"{self.label}, {self.checked.isoformat()}" if self.checked else self.label


@dataclass(frozen=True)
class ExampleView:
    """A worked example with what the examples lock says of its last run (status, date, environment)."""

    id: str
    title: str
    language: str
    code: str
    output: str  # as the source records it
    note_md: str | None
    status: ExampleStatus  # not-run as well when the example changed since its last run
    ran: dt.date | None = None
    python: str | None = None  # "3.11.2"
    packages: tuple[tuple[str, str], ...] = ()  # the requirements asked for, with the versions installed
    device: str = "cpu"

    @property
    def anchor(self) -> str:
        return f"example-{self.id}"

    @property
    def reproduced(self) -> bool:
        return self.status is ExampleStatus.REPRODUCED

    @property
    def environment(self) -> str | None:
        """"Python 3.11, torch 2.13.0 (CPU)": the Python minor version, each requirement's version without
        its local label (+cpu: the device says it), the device."""
        if self.python is None:
            return None
        parts = [f"Python {'.'.join(self.python.split('.')[:2])}", *(f"{name} {version.split('+')[0]}" for name, version in self.packages)]
        return f"{', '.join(parts)} ({self.device.upper()})"

    @property
    def run_text(self) -> str:
        """What the outputs print under the example: "ran on 2026-11-30 with Python 3.11, torch 2.13.0 (CPU)",
        or what is wrong with it ("not yet run by the pipeline", "output has changed since it was recorded ...")."""
        when = f"on {self.ran.isoformat()} with {self.environment}" if self.ran and self.environment else ""
        if self.reproduced:
            return f"ran {when}" if when else EXAMPLE_LABELS[self.status]
        label = EXAMPLE_LABELS[self.status]
        if self.status in (ExampleStatus.DRIFTED, ExampleStatus.FAILED, ExampleStatus.TIMEOUT) and when:
            return f"{label}: last run {when}"
        return label


@dataclass(frozen=True)
class QuestionView:
    """A practice question, authored or generated, as every output shows it: what it asks, in parts of the
    interaction shapes (pipeline/shapes/parts.py), with its answer and how it is scored, from its type."""

    id: str
    type: str
    objective: str  # the objective's id
    section: int
    number: int  # 1.. within its objective: authored questions first, then generated ones
    stem_md: str
    prompt: str  # the instruction a learner reads, from the type ("Choose one.")
    parts: tuple[Part, ...]  # what the learner answers: one part per interaction, settled (display order, letters, answers)
    answer_md: str  # the answer as an answer key, a card back or the bank print it (Markdown), from the type
    scoring: str  # how an answer is scored, in a sentence, from the type
    explanation_md: str
    difficulty: str
    key_points: tuple[str, ...]
    citations: tuple[CitationView, ...]
    category_path: tuple[str, ...]  # exam code, "6 Performance Optimization", "6.1 Efficiency versus accuracy"
    source_file: str  # relative to the exam folder, / separators
    source_line: int
    generated: str | None = None  # the generator rule, None for authored questions
    tags: tuple[str, ...] = ()
    mock_only: bool = False  # held out for mock exams: not in practice (ObjectiveView.practice, the site's practice pages)
    # A varied question: the view itself is variant 1; `variants` holds every built variant (1 first), each a
    # view of its own under the question's id; `template` is the question as written (its fields as data).
    variants: tuple[VariantView, ...] = ()
    template: Mapping[str, Any] | None = None

    @property
    def label(self) -> str:
        return f"Q{self.number}"

    @property
    def shapes(self) -> tuple[str, ...]:
        return tuple(part.shape for part in self.parts)


@dataclass(frozen=True)
class VariantView:
    """Variant `index` of a varied question: its seed, its values, and the question they make (parts shuffled
    by the variant's own id, so the key's place differs between variants)."""

    index: int
    seed: int
    values: Mapping[str, Any]
    question: QuestionView


@dataclass(frozen=True)
class SeeView:
    """A cross-reference (`see:`) to an objective of this exam or another one, with the target's title."""

    exam_id: str
    objective: str
    same_exam: bool
    exam_code: str | None  # None (and title None) when that exam is not in the sources
    title: str | None

    @property
    def text(self) -> str:
        """"6.2 Hyperparameter tuning", or with the exam's code when it is another exam's objective."""
        exam = "" if self.same_exam else f"{self.exam_code or self.exam_id} "
        return f"{exam}{self.objective}" + (f" {self.title}" if self.title else "")

    @property
    def anchor(self) -> str | None:
        """The objective's anchor in this exam's guide, for a reference within the exam."""
        return f"objective-{self.objective}" if self.same_exam and self.title else None


@dataclass(frozen=True)
class KeyPointView:
    id: str
    text_md: str  # may hold cloze marks ({{c1::...}}): strip them (pipeline/text/cloze.py) where no card hides them
    citations: tuple[CitationView, ...]
    see: SeeView | None = None
    essential_md: str | None = None  # the author's summary for the guide's essentials box; None: the whole point stands in


@dataclass(frozen=True)
class CheckPromptView:
    """A check-yourself prompt, and what a good answer holds when the author wrote it (`answer:`)."""

    prompt_md: str
    answer_md: str | None = None


@dataclass(frozen=True)
class ObjectiveView:
    id: str
    title: str
    summary_md: str
    section: int
    reviewed: dt.date
    age_days: int
    stale: bool
    key_points: tuple[KeyPointView, ...]
    terms: tuple[Term, ...]
    examples: tuple[ExampleView, ...]
    labs: tuple[Lab, ...]
    questions: tuple[QuestionView, ...]  # authored, in source order
    generated: tuple[QuestionView, ...]  # generated from this objective's terms and key points, by id
    see: SeeView | None = None  # another objective to read with this one
    check_yourself: tuple[CheckPromptView, ...] = ()  # prompts a candidate answers alone at the end of the objective

    @property
    def heading(self) -> str:
        return f"{self.id} {self.title}"

    @property
    def anchor(self) -> str:
        return f"objective-{self.id}"

    @cached_property
    def practice(self) -> tuple[QuestionView, ...]:
        """What a printed page or a card deck practises: the authored questions, then generated ones of the
        rules in PRACTICE_RULES (the other rules drill the same terms and gaps that term and cloze cards do)."""
        return tuple(q for q in self.questions if not q.mock_only) + tuple(q for q in self.generated if q.generated in PRACTICE_RULES)


@dataclass(frozen=True)
class SectionView:
    number: int
    title: str
    weight: int
    objectives: tuple[ObjectiveView, ...]

    @property
    def heading(self) -> str:
        return f"{self.number} {self.title}"

    @property
    def anchor(self) -> str:
        return f"section-{self.number}"


@dataclass(frozen=True)
class ReferenceView:
    """A cited page, once: its number, the quotes it backs (each once) and the objectives citing it."""

    number: int
    url: str
    title: str
    citations: tuple[CitationView, ...]
    objectives: tuple[str, ...]


@dataclass(frozen=True)
class ExamView:
    exam: Exam
    sections: tuple[SectionView, ...]
    references: tuple[ReferenceView, ...]
    coverage: object  # schema.bank.Coverage: the bank prints it as it is
    today: dt.date  # the date staleness was judged on
    source_date: dt.datetime  # the build's date: SOURCE_DATE_EPOCH, else the newest review date (never the clock)
    source_date_pinned: bool = False  # the source date is SOURCE_DATE_EPOCH's, not the newest review date
    sources_changed_at: int = 0  # newest modification time (whole seconds) of the exam's files: an ordered "newer" for Anki
    exam_stale: bool = False
    exam_age_days: int = 0
    exam_facts: tuple[tuple[str, CitationView], ...] = ()  # (questions | minutes | pass, its quote): exam.yaml's cited exam facts
    media: tuple = ()  # pipeline.load.media.MediaFile: every image the texts show, in path order, each output carries them

    # Derived once per view (the view is read-only): renderers ask for these per item.
    @cached_property
    def objectives(self) -> tuple[ObjectiveView, ...]:
        return tuple(o for s in self.sections for o in s.objectives)

    @cached_property
    def questions(self) -> tuple[QuestionView, ...]:
        """Every question, objective by objective: authored in source order, then generated by id."""
        return tuple(q for o in self.objectives for q in (*o.questions, *o.generated))

    @cached_property
    def _objectives_by_id(self) -> dict[str, ObjectiveView]:
        return {o.id: o for o in self.objectives}

    def objective(self, objective_id: str) -> ObjectiveView:
        return self._objectives_by_id[objective_id]
