"""`build`: validate, then run every renderer into a staging folder and move the outputs into place.

Nothing is replaced unless everything succeeded: a content error, or a renderer failing for any
exam, leaves the previous outputs as they were.
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
import tempfile
from pathlib import Path

from pipeline.content import ExamContent
from pipeline.lock import CitationLock
from pipeline.render import RENDERERS, RenderContext
from pipeline.today import source_date_epoch


def source_date(content: ExamContent) -> dt.datetime:
    """SOURCE_DATE_EPOCH when set, else the latest review date in the sources (midnight UTC): never the clock."""
    epoch = source_date_epoch()
    if epoch:
        return epoch
    latest = max([content.exam.reviewed, *(o.reviewed for o in content.objectives)])
    return dt.datetime.combine(latest, dt.time(), tzinfo=dt.UTC)


def _render_exam(content: ExamContent, out: Path, staging: Path, paper: str) -> list[Path]:
    final_dir = out / content.exam.id
    lock = CitationLock.load(content.folder)
    ctx = RenderContext(content, staging, source_date(content), lock, final_dir if final_dir.is_dir() else None, paper)
    written: list[Path] = []
    for render in RENDERERS.values():
        written.extend(render(ctx))
    return written


def build(exams: list[ExamContent], out: Path, paper: str = "a4") -> list[Path]:
    """Render every exam; return the final paths written (empty when no renderer is registered)."""
    if not RENDERERS:
        return []
    out.mkdir(parents=True, exist_ok=True)
    stagings: dict[str, Path] = {}
    try:
        staged: list[tuple[Path, Path]] = []
        for content in exams:
            staging = stagings[content.exam.id] = Path(tempfile.mkdtemp(prefix=f".{content.exam.id}-", dir=out))
            for path in _render_exam(content, out, staging, paper):
                staged.append((path, out / content.exam.id / path.relative_to(staging)))
        for source, target in staged:  # only now, with every output complete, replace the old ones
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(source, target)
        return [target for _, target in staged]
    finally:
        for staging in stagings.values():
            shutil.rmtree(staging, ignore_errors=True)
