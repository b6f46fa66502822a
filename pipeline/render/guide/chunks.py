"""The study guide cut into chunks that weasyprint lays out one at a time, so that its memory holds one
chunk's boxes rather than the whole book's.

The guide is a run of segments that each begin on a new page: the cover, the contents and the objectives
map (the front matter), each objective of each section, then the practice exam, the answer key, the
glossary and the references. Chunks are cut only between such segments, where the layout breaks the page
anyway, so a guide printed in chunks is laid out page for page as the whole guide would be. A chunk
gathers segments until it holds about `CHUNK_ITEMS` items (objectives, key points, terms, examples,
questions); a section longer than that goes on in the next chunk (`Segment.continued`). The practice exam
flows from question to question with no page break: one of more than `PRACTICE_ITEMS` questions is cut
into runs of that many, each beginning on a new page (the one place where printing in chunks leaves a
page partly empty that the whole guide would have filled).
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.render.guide.appendix import ExamItem
from pipeline.render.guide.context import Guide
from pipeline.view.model import ObjectiveView, SectionView

CHUNK_ITEMS = 400  # about 60-80 pages: weasyprint's memory grows with the pages it lays out at once
PRACTICE_ITEMS = 600  # practice questions laid out at once: about 100 pages
FRONT = ("cover.html.j2", "toc.html.j2", "objectives_map.html.j2")
APPENDICES = (("practice.html.j2", "Practice exam"), ("answers.html.j2", "Answer key"), ("glossary.html.j2", "Glossary"),
              ("references.html.j2", "References"))


@dataclass(frozen=True)
class Segment:
    """Something that begins on a page of its own: a template of the guide, or some objectives of a section."""

    title: str  # what the running header shows while it is printed
    items: int  # how much it holds, to size the chunks
    template: str = "section.html.j2"
    section: SectionView | None = None
    objectives: tuple[ObjectiveView, ...] = ()
    continued: bool = False  # the section (or the practice exam) began in the chunk before: no heading again
    practice: tuple[ExamItem, ...] = ()  # a run of the practice exam's questions


@dataclass(frozen=True)
class Chunk:
    segments: tuple[Segment, ...]

    @property
    def carry(self) -> str:
        """The running header's title at the chunk's start."""
        return self.segments[0].title


def items(objective: ObjectiveView) -> int:
    return 1 + len(objective.key_points) + len(objective.terms) + len(objective.examples) + len(objective.questions)


def front(guide: Guide) -> Chunk:
    """The cover, the contents and the objectives map: laid out last, once every page number is known."""
    return Chunk(tuple(Segment("", 1, template) for template in FRONT))


def _section_segments(section: SectionView, limit: int) -> list[Segment]:
    """The section, cut into runs of objectives of at most `limit` items (at least one objective each)."""
    title = f"Section {section.number}: {section.title}"
    runs: list[list[ObjectiveView]] = [[]]
    for objective in section.objectives:
        if runs[-1] and sum(map(items, runs[-1])) + items(objective) > limit:
            runs.append([])
        runs[-1].append(objective)
    return [Segment(title, sum(map(items, run)) or 1, section=section, objectives=tuple(run), continued=i > 0) for i, run in enumerate(runs)]


def _appendix_items(guide: Guide, template: str) -> int:
    sizes = {"practice.html.j2": len(guide.practice), "answers.html.j2": len(guide.practice) // 8,
             "glossary.html.j2": len(guide.glossary) // 4, "references.html.j2": len(guide.references) + len(guide.reviews)}
    return max(sizes[template], 1)


def body(guide: Guide, limit: int = CHUNK_ITEMS) -> list[Chunk]:
    """Every segment after the front matter, in order, gathered into chunks of about `limit` items."""
    segments = [p for s in guide.sections for p in _section_segments(s, limit)]
    for template, title in APPENDICES:
        if template == "practice.html.j2" and len(guide.practice) > PRACTICE_ITEMS:
            runs = [guide.practice[i : i + PRACTICE_ITEMS] for i in range(0, len(guide.practice), PRACTICE_ITEMS)]
            segments += [Segment(title, len(run), template, practice=run, continued=i > 0) for i, run in enumerate(runs)]
        else:
            segments.append(Segment(title, _appendix_items(guide, template), template))
    chunks: list[list[Segment]] = [[]]
    for segment in segments:
        if chunks[-1] and sum(p.items for p in chunks[-1]) + segment.items > limit:
            chunks.append([])
        chunks[-1].append(segment)
    return [Chunk(tuple(c)) for c in chunks]


def size(guide: Guide) -> int:
    """The guide's items: small guides are printed whole."""
    return sum(items(o) for o in guide.objectives) + len(guide.practice)
