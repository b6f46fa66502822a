"""Everything the study guide's templates need, taken from the exam view.

The guide derives nothing on its own (numbering, answers, staleness and citation status are the view's);
this module only gathers what the templates lay out. Dates come from the build's source date, never the
clock, so the same sources give the same guide.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from pipeline.render import shape_files
from pipeline.render.guide import appendix, book
from pipeline.render.guide.callouts import ReferenceFacts, reference_facts
from pipeline.render.guide.fetcher import TEMPLATES
from pipeline.render.support import writable
from pipeline.shapes import registry
from pipeline.view.model import ObjectiveView, SectionView
from schema.citation_status import Status
from schema.models import Exam

if TYPE_CHECKING:  # pipeline.render imports the renderers, which import this module
    from pipeline.render import RenderContext

# Who the PDF says wrote it. Not the exam's vendor: the vendor is quoted, it did not write the guide.
AUTHOR = "exam-prep pipeline"
LANGUAGE = "en"
# The shapes the guide prints: those with a template (templates/guide/shapes/<shape>.html.j2, or the shape's
# folder's guide.html.j2) and an answer-key writer.
SHAPES = shape_files.shapes_with("guide", TEMPLATES / "guide", ("shapes",)) & frozenset(registry.writers("guide"))


@dataclass(frozen=True)
class Guide:
    exam: Exam
    sections: tuple[SectionView, ...]
    practice: tuple[appendix.ExamItem, ...]
    lab_homes: dict[str, str]  # a lab's address -> the objective that describes it (the first listing it)
    glossary: tuple[appendix.GlossaryEntry, ...]
    references: tuple[ReferenceFacts, ...]
    reviews: tuple[appendix.ReviewView, ...]
    source_date: dt.datetime
    paper: str
    author: str = AUTHOR
    language: str = LANGUAGE

    @property
    def title(self) -> str:
        return f"{self.exam.code} study guide: {self.exam.title}"

    @cached_property
    def objectives(self) -> tuple[ObjectiveView, ...]:
        return tuple(o for s in self.sections for o in s.objectives)

    @cached_property
    def check_answered(self) -> tuple[ObjectiveView, ...]:
        """The objectives with a check-yourself prompt whose author wrote what a good answer holds: the answer key prints those."""
        return tuple(o for o in self.objectives if any(p.answer_md for p in o.check_yourself))

    @property
    def last_reviewed(self) -> dt.date:
        """The most recent review of the content (the exam page or any objective)."""
        return max(r.reviewed for r in self.reviews)

    @property
    def stale_count(self) -> int:
        return sum(r.stale for r in self.reviews)

    @property
    def legend(self) -> list[tuple[str, str, str]]:
        return book.legend()

    @property
    def checked_summary(self) -> str:
        """How many of the guide's quotes were found, e.g. "12 of 31 quotes found on their page so far"."""
        quotes = [c for o in self.objectives for kp in o.key_points for c in kp.citations]
        found = sum(c.status in (Status.FOUND, Status.ARCHIVED, Status.MOVED) for c in quotes)
        return f"{found} of {len(quotes)} quotes found on their page so far"

    @property
    def created(self) -> str:
        """The source date as weasyprint's `dcterms.created` wants it (W3C date-time, UTC)."""
        return self.source_date.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def build_guide(ctx: RenderContext) -> Guide:
    view = ctx.view
    printable = {q.id for q in writable(view.questions, SHAPES, "guide", ctx.warnings)}
    return Guide(
        exam=view.exam,
        sections=view.sections,
        practice=tuple(appendix.practice_exam(view, keep=lambda q: q.id in printable, drills=view.exam.mock_exam.drills)),
        lab_homes=appendix.first_labs(view),
        glossary=tuple(appendix.glossary(view)),
        references=tuple(reference_facts(r) for r in view.references),
        reviews=tuple(appendix.reviews(view)),
        source_date=view.source_date,
        paper=ctx.option("paper"),
    )
