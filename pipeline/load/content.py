"""The validated content of one exam, as the checks and every renderer receive it.

Renderers never read YAML: they get an `ExamContent`, whose models are the pydantic models of
`schema/`, plus the source file and line of every item (for answer keys, bank `source` fields and
messages) through `SourceFile.line_of`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from pipeline.load.yamlsource import PathKey, Position, YamlDocument
from schema.models import Exam, KeyPoint, Objective, Question, Section, Term


@dataclass(frozen=True)
class SourceFile:
    """One loaded YAML file: where it is, its node positions, and its validated model."""

    doc: YamlDocument

    @property
    def path(self) -> Path:
        return self.doc.path

    def position(self, path: PathKey) -> Position:
        return self.doc.position(path)

    def line_of(self, path: PathKey) -> int:
        return self.doc.position(path).line


@dataclass(frozen=True)
class ObjectiveFile(SourceFile):
    """An objective file. `partial` files failed the schema: they hold only the items that passed it,
    so that the rule checks can still report on those in the same run (they are never rendered)."""

    objective: Objective
    partial: bool = False
    item_indexes: dict[str, tuple[int, ...]] | None = None  # for partial files: each kept item's index in the source
    unvalidated_ids: frozenset[str] = frozenset()  # for partial files: ids of the items left out, so references to them stand

    def indexed(self, field: str) -> list[tuple[int, Any]]:
        """(index in the source list, item) for `key_points`, `terms` or `questions`."""
        items = getattr(self.objective, field) or []
        indexes = self.item_indexes.get(field, ()) if self.item_indexes is not None else range(len(items))
        return list(zip(indexes, items, strict=True))


@dataclass(frozen=True)
class ExamFile(SourceFile):
    exam: Exam
    partial: bool = False  # invalid, repaired for the checks (pipeline/load/repair.py); never built


@dataclass(frozen=True)
class CrossRefTarget:
    """Where a `see:` points, as `validate` found it: the title is None when the exam is not in the sources."""

    exam_id: str
    objective: str
    exam_code: str | None = None
    title: str | None = None


def objective_sort_key(objective_id: str) -> tuple[int, ...]:
    """"6.10" sorts after "6.9"."""
    return tuple(int(part) for part in re.findall(r"\d+", objective_id))


@dataclass(frozen=True)
class ExamContent:
    """An exam and its objectives, objectives in outline order."""

    folder: Path
    exam_file: ExamFile
    objective_files: tuple[ObjectiveFile, ...]
    cross_refs: tuple[tuple[tuple[str, str], CrossRefTarget], ...] = ()  # ((exam id, objective), target), set by validate
    media: tuple = ()  # pipeline.load.media.MediaFile: the exam's images, checked, in path order

    def cross_ref(self, exam_id: str | None, objective: str) -> CrossRefTarget:
        """The target of a `see:` (its exam defaults to this one)."""
        exam_id = exam_id or self.exam.id
        return self._cross_refs.get((exam_id, objective), CrossRefTarget(exam_id, objective))

    @cached_property
    def _cross_refs(self) -> dict[tuple[str, str], CrossRefTarget]:
        return dict(self.cross_refs)

    @cached_property
    def _sections(self) -> dict[int, Section]:
        return {s.number: s for s in self.exam.sections}

    @property
    def exam(self) -> Exam:
        return self.exam_file.exam

    @property
    def objectives(self) -> list[Objective]:
        return [f.objective for f in self.objective_files]

    def section_of(self, objective: Objective) -> Section | None:
        return self._sections.get(int(objective.id.split(".")[0]))

    def key_points(self) -> dict[str, KeyPoint]:
        return {kp.id: kp for o in self.objectives for kp in o.key_points}

    def terms(self) -> list[tuple[Objective, Term]]:
        return [(o, t) for o in self.objectives for t in o.terms]

    def questions(self) -> list[tuple[Objective, Question]]:
        return [(o, q) for o in self.objectives for q in o.questions]

