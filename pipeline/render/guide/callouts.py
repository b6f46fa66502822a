"""Citations as the guide shows them: call-outs grouped by who says it, and the references' tallies.

Every fact (page numbers, statuses, dates) comes from the exam view; this module only groups them.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass

from pipeline.view.model import CitationView, KeyPointView, ReferenceView


@dataclass(frozen=True)
class Callout:
    """One "What <publisher> says" box: the quotes behind a key point from one publisher."""

    speaker: str
    quotes: tuple[CitationView, ...]


def callouts(point: KeyPointView) -> tuple[Callout, ...]:
    """The point's quotes grouped by publisher, in the order they are cited."""
    groups: dict[str, list[CitationView]] = {}
    for citation in point.citations:
        groups.setdefault(citation.speaker, []).append(citation)
    return tuple(Callout(speaker, tuple(quotes)) for speaker, quotes in groups.items())


@dataclass(frozen=True)
class ReferenceFacts:
    """What the References appendix says of one page."""

    ref: ReferenceView
    statuses: tuple[tuple[str, int], ...]  # (status label, how many quotes), most frequent first
    last_checked: dt.date | None

    @property
    def quotes(self) -> int:
        return len(self.ref.citations)


def reference_facts(ref: ReferenceView) -> ReferenceFacts:
    statuses = Counter(c.label for c in ref.citations).most_common()
    dates = [c.checked for c in ref.citations if c.checked]
    return ReferenceFacts(ref, tuple(statuses), max(dates, default=None))
