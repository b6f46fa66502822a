"""Citations in the view: every quote with its check from the lock, pages numbered by first citation.

The one rule for what backs a question: the citations of the key points it names, in that order, each
(url, quote) once. Generated questions name the key points they come from, so they inherit theirs.
"""

from __future__ import annotations

from collections.abc import Iterable

from pipeline.citations.lock import CitationLock
from pipeline.load.content import ExamContent
from pipeline.view.model import CitationView, ReferenceView
from schema.models import Citation, KeyPoint


def _web(url: str | None) -> str | None:
    """An address from the lock that outputs may link to: http(s) only, as for addresses in the sources."""
    return url if url and url.startswith(("http://", "https://")) else None


class Citations:
    """Built once per exam: page numbers in reading order, and a CitationView per (key point, citation)."""

    def __init__(self, content: ExamContent, lock: CitationLock) -> None:
        self.vendor, self.lock = content.exam.vendor, lock
        self.points: dict[str, KeyPoint] = content.key_points()
        self.uses: dict[str, list[tuple[str, CitationView]]] = {}  # url -> (objective id, view), reading order
        self.numbers: dict[str, int] = {}  # url -> its number in the references: by first citation
        self.views: dict[str, tuple[CitationView, ...]] = {}  # key point id -> its citations
        for objective in content.objectives:
            for point in objective.key_points:
                self.views[point.id] = tuple(self._view(objective.id, point.id, c) for c in point.citations)

    def _view(self, objective_id: str, point_id: str, citation: Citation) -> CitationView:
        number = self.numbers.setdefault(citation.url, len(self.numbers) + 1)
        entry = self.lock.entry(citation.url, citation.quote)
        view = CitationView(
            key_point=point_id, url=citation.url, title=citation.title, quote=citation.quote,
            speaker=citation.publisher or self.vendor, publisher=citation.publisher,
            status=entry.status, checked=entry.checked, ref=number,
            archive_url=_web(entry.archive_url), archive_date=entry.archive_date,
        )
        self.uses.setdefault(citation.url, []).append((objective_id, view))
        return view

    def facts(self, content: ExamContent) -> tuple[tuple[str, CitationView], ...]:
        """exam.yaml's cited exam facts, each with its check; not numbered among the references (they back no key point)."""
        found = []
        for key, citation in content.exam.exam_facts.cited():
            entry = self.lock.entry(citation.url, citation.quote)
            found.append((key, CitationView(
                key_point=f"exam-facts.{key}", url=citation.url, title=citation.title, quote=citation.quote,
                speaker=citation.publisher or self.vendor, publisher=citation.publisher, status=entry.status, checked=entry.checked,
                ref=0, archive_url=_web(entry.archive_url), archive_date=entry.archive_date)))
        return tuple(found)

    def of_point(self, point_id: str) -> tuple[CitationView, ...]:
        return self.views.get(point_id, ())

    def behind(self, key_points: Iterable[str]) -> tuple[CitationView, ...]:
        """The citations backing a question that names `key_points`: each (url, quote) once, in order."""
        unique: dict[tuple[str, str], CitationView] = {}
        for point_id in key_points:
            for view in self.of_point(point_id):
                unique.setdefault((view.url, view.quote), view)
        return tuple(unique.values())

    def references(self) -> tuple[ReferenceView, ...]:
        return tuple(self._reference(n, url, uses) for n, (url, uses) in enumerate(self.uses.items(), start=1))

    @staticmethod
    def _reference(number: int, url: str, uses: list[tuple[str, CitationView]]) -> ReferenceView:
        distinct = tuple({view.quote: view for _, view in uses}.values())  # the same quote cited twice is one quote
        objectives = tuple(dict.fromkeys(objective_id for objective_id, _ in uses))
        return ReferenceView(number, url, uses[0][1].title, distinct, objectives)
