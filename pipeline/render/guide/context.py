"""Everything the study guide's templates need, computed once from a RenderContext.

This is the whole of the guide's logic (grouping, numbering, answers, staleness); the templates only
lay it out, and weasyprint only prints it. Dates come from the build's source date, never the clock,
so the same sources give the same guide.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pipeline.render.guide import appendix
from pipeline.render.guide.citations import References, ReferenceView
from pipeline.render.guide.objectives import ObjectiveView, SectionView, section_views
from schema.models import Exam

if TYPE_CHECKING:  # pipeline.render imports the renderers, which import this module
    from pipeline.render import RenderContext

# Who the PDF says wrote it. Not the exam's vendor: the vendor is quoted, it did not write the guide.
AUTHOR = "exam-prep pipeline"
LANGUAGE = "en"


@dataclass(frozen=True)
class Guide:
    exam: Exam
    sections: tuple[SectionView, ...]
    answers: tuple[appendix.AnswerGroup, ...]
    glossary: tuple[appendix.GlossaryEntry, ...]
    references: tuple[ReferenceView, ...]
    reviews: tuple[appendix.ReviewView, ...]
    source_date: dt.datetime
    paper: str
    author: str = AUTHOR
    language: str = LANGUAGE

    @property
    def title(self) -> str:
        return f"{self.exam.code} study guide: {self.exam.title}"

    @property
    def objectives(self) -> list[ObjectiveView]:
        return [o for s in self.sections for o in s.objectives]

    @property
    def last_reviewed(self) -> dt.date:
        """The most recent review of the content (the exam page or any objective)."""
        return max(r.reviewed for r in self.reviews)

    @property
    def stale_count(self) -> int:
        return sum(r.stale for r in self.reviews)

    @property
    def created(self) -> str:
        """The source date as weasyprint's `dcterms.created` wants it (W3C date-time, UTC)."""
        return self.source_date.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def build_guide(ctx: RenderContext) -> Guide:
    content, today = ctx.content, ctx.source_date.date()
    refs = References(content, ctx.lock)
    sections = section_views(content, refs, today)
    objectives = [o for s in sections for o in s.objectives]
    return Guide(
        exam=content.exam,
        sections=tuple(sections),
        answers=tuple(appendix.answer_groups(objectives, content, refs)),
        glossary=tuple(appendix.glossary(objectives)),
        references=tuple(refs.listing()),
        reviews=tuple(appendix.reviews(objectives, content, today)),
        source_date=ctx.source_date,
        paper=ctx.paper,
    )
