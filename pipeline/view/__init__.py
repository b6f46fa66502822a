"""The exam view: one derived, read-only picture of an exam that every renderer reads.

`pipeline.derive.build_view(inputs, today, source_date)` makes it once per exam and build. It settles every
fact an output needs so that no renderer derives one on its own: sections and objectives in order with
their numbering and labels; per question its options in display order, correct answers, and the
citations that back it (one rule, `pipeline/derive/citations.py`) with their check status and date; staleness per
objective; the generated questions; coverage. Renderers never import the lock, "today", the loader or
the YAML layer (a test checks the imports); escaping for a format stays at each renderer's edge.
"""

from pipeline.view.model import (
    CitationView,
    ExampleView,
    ExamView,
    KeyPointView,
    ObjectiveView,
    QuestionView,
    ReferenceView,
    SectionView,
)

__all__ = [
    "CitationView", "ExampleView", "ExamView", "KeyPointView", "ObjectiveView", "QuestionView", "ReferenceView", "SectionView",
]
