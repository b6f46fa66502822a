"""Cross-references (`see: {exam: ID, objective: "N.M"}`) on objectives and key points point somewhere.

A reference to an exam of the sources must name one of its objectives: otherwise an error on the
reference's line, with the closest objective number and its title. A reference to an exam that is not
in the sources cannot be checked here: a warning, so that it is looked at once the exam is added.
"""

from __future__ import annotations

import difflib
from typing import Protocol

from pipeline.diagnostics import Report
from pipeline.load.content import CrossRefTarget, ExamContent, ObjectiveFile
from pipeline.load.schema_errors import field_label
from pipeline.load.yamlsource import PathKey
from schema.models import CrossRef


class Targets(Protocol):
    def __contains__(self, exam_id: str) -> bool: ...
    def ids(self) -> list[str]: ...
    def content(self, exam_id: str) -> ExamContent | None: ...


def references(file: ObjectiveFile) -> list[tuple[PathKey, CrossRef]]:
    """Every `see` of one objective file, with its path."""
    refs = [(("see",), file.objective.see)] if getattr(file.objective, "see", None) else []
    refs += [(("key_points", i, "see"), kp.see) for i, kp in file.indexed("key_points") if kp.see]
    return refs


def _guess(wrong: str, choices: list[str]) -> str | None:
    found = difflib.get_close_matches(wrong, choices, n=1, cutoff=0.5)
    return found[0] if found else None


def _missing_objective(ref: CrossRef, exam_id: str, target: ExamContent) -> str:
    titles = {o.id: o.title for o in target.objectives}
    guess = _guess(ref.objective, list(titles))
    hint = f"; did you mean \"{guess}\" ({titles[guess]})?" if guess else ""
    return f"exam '{exam_id}' has no objective \"{ref.objective}\"{hint} (objectives: {', '.join(titles) or 'none'})"


def _check_one(file: ObjectiveFile, path: PathKey, ref: CrossRef, exam_id: str, targets: Targets, report: Report) -> None:
    where = file.position(path + ("objective",))
    if exam_id not in targets:
        guess = _guess(exam_id, targets.ids())
        hint = f"; did you mean '{guess}'?" if guess else ""
        report.warning(file.path, file.position(path + ("exam",)), f"{field_label(path + ('exam',))}: exam '{exam_id}' is not in the sources{hint}; "
                       "the reference cannot be checked until it is added", "see-exam-absent")
        return
    target = targets.content(exam_id)
    if target is not None and ref.objective not in {o.id for o in target.objectives}:
        report.error(file.path, where, f"{field_label(path + ('objective',))}: {_missing_objective(ref, exam_id, target)}", "see-unknown")


def check_cross_refs(content: ExamContent, targets: Targets, report: Report) -> None:
    for file in content.objective_files:
        for path, ref in references(file):
            _check_one(file, path, ref, ref.exam or content.exam.id, targets, report)


def resolve(content: ExamContent, targets: Targets) -> tuple[tuple[tuple[str, str], CrossRefTarget], ...]:
    """Every `see:` of the exam with its target's exam code and title, for the renderers (none when absent)."""
    found: dict[tuple[str, str], CrossRefTarget] = {}
    for file in content.objective_files:
        for _, ref in references(file):
            exam_id = ref.exam or content.exam.id
            target = targets.content(exam_id) if exam_id in targets else None
            objective = next((o for o in target.objectives if o.id == ref.objective), None) if target else None
            found[(exam_id, ref.objective)] = CrossRefTarget(exam_id, ref.objective, target.exam.code if target else None,
                                                             objective.title if objective else None)
    return tuple(sorted(found.items()))
