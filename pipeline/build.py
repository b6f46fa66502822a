"""`build`: validate, then run every renderer whose inputs changed into a staging folder, and move the
outputs into place.

Nothing is replaced unless everything succeeded: a content error, or a renderer failing for any
exam, leaves the previous outputs as they were. A renderer whose inputs (the part of the exam view it shows,
its templates, the code) did not change since the last build is skipped and its files are left alone
(see pipeline/publish/incremental.py); `force` redoes all.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from pipeline import render as registry
from pipeline.citations.lock import CitationLock
from pipeline.load.content import ExamContent
from pipeline.publish.incremental import BuildState, code_digest, input_digest, template_digest
from pipeline.view import build_view

RENDERERS = registry.RENDERERS  # module-level so tests can swap the set of renderers


@dataclass
class BuildResult:
    written: list[Path] = field(default_factory=list)  # final paths replaced by this build
    unchanged: list[Path] = field(default_factory=list)  # outputs left alone: their inputs did not change
    warnings: list[str] = field(default_factory=list)  # "<exam>: <renderer's warning>", from the renderers that ran


@dataclass
class _Staged:
    moves: list[tuple[Path, Path]] = field(default_factory=list)
    states: list[BuildState] = field(default_factory=list)


def _render_exam(content: ExamContent, out: Path, staging: Path, options: Mapping[str, str], force: bool,
                 staged: _Staged, result: BuildResult) -> None:
    final_dir = out / content.exam.id
    view = build_view(content, CitationLock.load(content.folder))
    ctx = registry.RenderContext(view, staging, final_dir if final_dir.is_dir() else None, **options, sources_dir=content.folder)
    state, code = BuildState.load(out, content.exam.id), code_digest()
    for name, entry in RENDERERS.items():
        part = registry.output(entry)
        digest = input_digest(view, part.leaves_out, template_digest(part.templates), code, {"renderer": name, **options})
        if not force and state.is_fresh(name, digest, final_dir):
            result.unchanged.extend(final_dir / f for f in state.renderers[name]["files"])
            result.warnings.extend(f"{content.exam.id}: {w}" for w in state.renderers[name].get("warnings", []))
            continue
        before = len(ctx.warnings)
        paths = registry.load(entry)(ctx)
        state.record(name, digest, [str(p.relative_to(staging)) for p in paths], ctx.warnings[before:])
        result.warnings.extend(f"{content.exam.id}: {w}" for w in ctx.warnings[before:])
        staged.moves.extend((p, final_dir / p.relative_to(staging)) for p in paths)
    staged.states.append(state)


def build(exams: list[ExamContent], out: Path, *, options: Mapping[str, str] | None = None, force: bool = False) -> BuildResult:
    """Render every exam; return what was written and what was left unchanged.

    `options` are RenderContext fields set from the command line (e.g. {"paper": "letter"}); they are
    part of every output's inputs, so changing one rebuilds."""
    result, staged = BuildResult(), _Staged()
    if not RENDERERS or not exams:
        return result
    out.mkdir(parents=True, exist_ok=True)
    stagings: list[Path] = []
    try:
        for content in exams:
            stagings.append(Path(tempfile.mkdtemp(prefix=f".{content.exam.id}-", dir=out)))
            _render_exam(content, out, stagings[-1], options or {}, force, staged, result)
        for source, target in staged.moves:  # only now, with every output complete, replace the old ones
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(source, target)
            result.written.append(target)
        for state in staged.states:
            state.save()
        return result
    finally:
        for staging in stagings:
            shutil.rmtree(staging, ignore_errors=True)
