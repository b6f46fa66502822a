"""`validate`'s reading of `item-stats.json`: each finding of `pipeline.stats.judge` at its question's line
(a dead distractor at its option's line), in the objective file the question comes from. A varied question is
judged by its pooled record (its variants' answers together, and whether the variants are equally hard); its
variants' own rows are in the stats report."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.derive.build import build_view
from pipeline.diagnostics import Position, Report
from pipeline.load.content import ExamContent
from pipeline.stats.itemhash import answered_hash
from pipeline.stats.judge import findings
from pipeline.stats.match import ItemKey, QuestionIndex, key_of

if TYPE_CHECKING:  # the value's shape only: the reader (pipeline/settings/reader.py) sits above this stage
    from pipeline.inputs.value import ExamInputs


def check_item_stats(inputs: ExamInputs, report: Report) -> None:
    """`inputs` as the reader read them with `stats=True` (its item statistics)."""
    content, data = inputs.content, inputs.stats
    if data is None or not data.items:
        return
    view = build_view(inputs)
    checks = dict(content.exam.checks)
    index = QuestionIndex.of(view)
    for q in view.questions:
        record = data.items.get(q.id)  # a varied question's: its variants pooled
        if record is None:
            continue
        key = key_of(q)
        for finding in findings(key, record, answered_hash(index, q.id), checks, data.date.isoformat()):
            path, position = _place(content, key, finding.option)
            report.warning(path, position, finding.message, finding.code)


def _place(content: ExamContent, key: ItemKey, option: str | None):
    """The question's node in its objective file (an option's node for `option`), else its view line."""
    for file in content.objective_files:
        if file.path.relative_to(content.folder).as_posix() != key.source_file:
            continue
        for i, q in file.indexed("questions"):
            if q.id == key.id:
                if option and len(option) == 1 and option.isalpha():
                    return file.path, file.position(("questions", i, "options", ord(option) - ord("a")))
                return file.path, file.position(("questions", i))
        return file.path, Position(key.source_line, 1)
    return content.folder / key.source_file, Position(key.source_line, 1)
