"""Find the exams under a sources folder, read their YAML files and validate them against the schema.

Layout: `SOURCES/<exam>/exam.yaml` (or `exam.yml`) plus any number of objective files (`*.yaml` or
`*.yml`, in any sub-folder) in the same exam folder. Every file is read and validated even when others
fail, so that one run reports every problem; a file that fails is left out of the content handed to the
checks. A folder is never skipped in silence: objective files without an exam file, or an exam file
without objectives, are errors.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, TypeAdapter, ValidationError

from pipeline.diagnostics import Report
from pipeline.errors import SourceError, SourcesNotFound
from pipeline.load.content import ExamContent, ExamFile, ObjectiveFile, objective_sort_key
from pipeline.load.limits import linked_folders, outside_sources
from pipeline.load.media import ExamMedia, exam_file_images
from pipeline.load.repair import repaired
from pipeline.load.schema_errors import field_label, model_at, report_validation_error
from pipeline.load.yamlsource import Position, YamlDocument, load_yaml
from pipeline.questions import QUESTION, TYPES
from pipeline.text.messages import describe
from pipeline.text.prog import command
from schema.models import Exam, Objective

EXAM_FILE = "exam.yaml"
EXAM_FILES = (EXAM_FILE, "exam.yml")


@dataclass
class LoadedExam:
    """What could be loaded of one exam folder: the exam file (None when invalid) and the valid objectives."""

    folder: Path
    exam_file: ExamFile | None
    objective_files: list[ObjectiveFile] = field(default_factory=list)
    media: tuple = ()  # pipeline.load.media.MediaFile: the images the objectives show, checked

    def content(self) -> ExamContent | None:
        if self.exam_file is None:
            return None
        ordered = sorted(self.objective_files, key=lambda f: (objective_sort_key(f.objective.id or ""), str(f.path)))
        return ExamContent(self.folder, self.exam_file, tuple(ordered), media=self.media)


def exam_folders(sources: Path) -> list[Path]:
    """Every folder directly under `sources` that holds an exam file or any YAML file, sorted by name."""
    if not sources.is_dir():
        raise SourcesNotFound(f"error: sources folder '{sources}' does not exist (run from the project root or pass --sources DIR)")
    folders = sorted(p for p in sources.iterdir() if p.is_dir() and not p.name.startswith(".")
                     and (outside_sources(p, sources) or exam_path(p) or _yaml_files(p)))  # a link out: listed, never read
    if not folders:
        raise SourcesNotFound(f"error: no exam found in '{sources}': expected {sources}/<exam>/{EXAM_FILE} (`{command('new', 'exam', 'ID')}` writes one)")
    return folders


def exam_path(folder: Path) -> Path | None:
    """The folder's exam file: exam.yaml, else exam.yml, else None."""
    return next((folder / name for name in EXAM_FILES if (folder / name).is_file()), None)


def _yaml_files(folder: Path) -> list[Path]:
    paths = [*folder.rglob("*.yaml"), *folder.rglob("*.yml")]
    return sorted(p for p in paths if not any(part.startswith(".") for part in p.relative_to(folder).parts))


def objective_paths(folder: Path) -> list[Path]:
    return [p for p in _yaml_files(folder) if p.parent != folder or p.name not in EXAM_FILES]


def _validate(path: Path, model: type[BaseModel], report: Report, sources: Path,
              media: ExamMedia | None = None) -> tuple[YamlDocument | None, Any]:
    """The document and its model; the model is None when invalid, the document too when unreadable
    or leading out of `sources` through a symbolic link. With `media`, images are checked and pointed at
    their files in the data the model is made from (pipeline/load/media.py)."""
    if why := outside_sources(path, sources):
        report.error(path, Position(1, 1), why, "yaml")
        return None, None
    try:
        doc = load_yaml(path)
    except SourceError as exc:
        report.error(exc.path, exc.position, exc.message, "yaml")
        return None, None
    for key_path, position in doc.duplicate_keys:
        report.error(path, position, f"{field_label(key_path)}: key given twice; keep one", "yaml")
    for key_path, position, value in doc.stray_quotes:
        report.error(path, position, f"{field_label(key_path)}: a closing \" with no opening one, so it would be shown as part of the "
                     f'text; open the value with " too ("{value}) or remove it', "yaml")
    if not isinstance(doc.data, dict):
        report.error(path, Position(1, 1), f"expected a mapping of keys at the top of the file, got {describe(doc.data)}", "schema")
        return doc, None
    data = doc.data
    if media is not None:
        objective = data.get("id") if isinstance(data.get("id"), str) else None
        data = media.rewritten(doc, objective)
    else:
        exam_file_images(doc, report)
    try:
        return doc, model.model_validate(data)
    except ValidationError as exc:
        report_validation_error(exc, doc, model, report)
        return doc, None


# What validates one item of each list: a question's model depends on its `type` (the union of the types).
_ITEM_MODELS = {"key_points": model_at(Objective, ("key_points",)), "terms": model_at(Objective, ("terms",)),
                "examples": model_at(Objective, ("examples",)), "questions": QUESTION}


def _salvage(doc: YamlDocument) -> ObjectiveFile:
    """The parts of an invalid objective file that pass the schema on their own, for the rule checks."""
    data = doc.data
    kept: dict[str, Any] = {}
    indexes: dict[str, tuple[int, ...]] = {}
    left_out: set[str] = set()
    for name, model in _ITEM_MODELS.items():
        raw = data.get(name)
        items = [(i, _valid_or_none(model, item)) for i, item in enumerate(raw if isinstance(raw, list) else [])]
        kept[name] = [item for _, item in items if item is not None]
        indexes[name] = tuple(i for i, item in items if item is not None)
        left_out.update(raw[i]["id"] for i, item in items if item is None and isinstance(raw[i], dict) and isinstance(raw[i].get("id"), str))
    for name in ("id", "reviewed"):
        field = Objective.model_fields[name]
        annotation = Annotated[(field.annotation, *field.metadata)] if field.metadata else field.annotation
        kept[name] = _valid_or_none(TypeAdapter(annotation), data.get(name))
    return ObjectiveFile(doc, Objective.model_construct(**kept), partial=True, item_indexes=indexes, unvalidated_ids=frozenset(left_out))


def _valid_or_none(model: Any, value: Any) -> Any:
    """An item as the checks may see it: valid, or repaired the way its author meant it (pipeline/load/repair.py).
    A question is repaired as the member of the union its `type` names."""
    if hasattr(model, "model_validate"):
        return repaired(model, value)
    try:
        return model.validate_python(value)
    except ValidationError:
        member = TYPES.get(value.get("type")) if model is QUESTION and isinstance(value, dict) and isinstance(value.get("type"), str) else None
        return repaired(member.model, value) if member is not None else None


def load_exam_file(folder: Path, report: Report) -> ExamFile | None:
    """The folder's validated exam file; None (with an error in `report`) when missing or invalid beyond repair.

    An invalid file that repairs (a misspelt key, a bad optional value) comes back `partial`, so that the
    exam-wide checks still run in the same pass; its schema errors keep it from being built."""
    if why := outside_sources(folder, folder.parent):
        report.error(folder, Position(1, 1), why, "yaml")  # the whole exam folder links out: none of it is read
        return None
    path = exam_path(folder)
    if path is None:
        first = objective_paths(folder)[0]
        report.error(first, Position(1, 1), f"objective files but no exam file in {folder.name}/: add {folder.name}/{EXAM_FILE} "
                     f"(`{command('new', 'exam', 'ID')}` writes one)", "exam-missing")
        return None
    if all((folder / name).is_file() for name in EXAM_FILES):
        report.error(folder / EXAM_FILES[1], Position(1, 1), f"two exam files in {folder.name}/ ({' and '.join(EXAM_FILES)}); keep one", "exam-twice")
    doc, exam = _validate(path, Exam, report, folder.parent)
    if exam is not None:
        return ExamFile(doc, exam)
    exam = repaired(Exam, doc.data) if doc is not None and isinstance(doc.data, dict) else None
    return ExamFile(doc, exam, partial=True) if exam is not None else None  # for the checks only: it has errors


def load_objectives(folder: Path, exam_file: ExamFile | None, report: Report) -> LoadedExam:
    """Read and validate the objective files of one exam folder, adding every problem to `report`."""
    result = LoadedExam(folder, exam_file)
    if outside_sources(folder, folder.parent):
        return result  # said once, by load_exam_file
    paths = objective_paths(folder)
    if not paths and exam_file is not None:
        report.error(exam_file.path, Position(1, 1), f"exam '{exam_file.exam.id}' has no objective files; add one "
                     f"(`{command('new', 'objective', exam_file.exam.id, 'NUMBER', 'TITLE')}` writes one)", "exam-empty")
    media = ExamMedia(folder, report)
    for path in paths:
        doc, objective = _validate(path, Objective, report, folder.parent, media)
        if objective is not None:
            result.objective_files.append(ObjectiveFile(doc, objective))
        elif doc is not None and isinstance(doc.data, dict):
            result.objective_files.append(_salvage(doc))
    result.media = media.ordered()
    for link in linked_folders(folder):
        if why := outside_sources(link, folder.parent):
            report.error(link, Position(1, 1), why, "yaml")
        else:
            report.warning(link, Position(1, 1), "is a symbolic link to a folder; linked folders are not followed, so the files in it "
                           "are not read through it (move them in, or link each file)", "yaml")
    return result


def load_exam(folder: Path, report: Report) -> LoadedExam:
    """Read and validate one exam folder, adding every problem to `report`."""
    return load_objectives(folder, load_exam_file(folder, report), report)
