"""`build`: validate, then run every renderer whose inputs changed into a new generation folder per exam,
and publish each exam's outputs all at once by switching its link (see pipeline/publish/generations.py).

Nothing is replaced unless everything succeeded: a content error, or a renderer failing for any exam,
leaves the previous outputs as they were, and so does a build killed at any moment. A renderer whose
inputs did not change since the last build is skipped and its files are carried over as hard links (see
pipeline/publish/incremental.py); `force` redoes all. A `Plan` may name only some outputs (`build --only`):
the others are carried over from the last generation as they were, and rebuilt by the next build that
names them.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from pipeline import render as registry
from pipeline.derive import build_view
from pipeline.errors import UsageError
from pipeline.inputs.value import ExamInputs
from pipeline.publish import owned, readback
from pipeline.publish.atomic import write_atomic
from pipeline.publish.generations import Generations, claim_out, exclusive, link_or_copy, sweep
from pipeline.publish.incremental import BuildState, code_digest, input_digest, template_digest, view_text
from pipeline.render import vendor
from pipeline.text import markdown

RENDERERS = registry.RENDERERS  # module-level so tests can swap the set of renderers


@dataclass
class BuildResult:
    written: list[Path] = field(default_factory=list)  # final paths replaced by this build
    unchanged: list[Path] = field(default_factory=list)  # outputs left alone: their inputs did not change
    recovered: list[str] = field(default_factory=list)  # sentences: what a broken earlier build left, and the repair
    warnings: list[str] = field(default_factory=list)  # "<exam>: <renderer's warning>", from the renderers that ran
    failed: dict[str, Exception] = field(default_factory=dict)  # exam id -> what stopped its build (the others went on)
    outcomes: dict[str, dict[str, str]] = field(default_factory=dict)  # exam id -> output name -> "written" | "unchanged"


@dataclass(frozen=True)
class Plan:
    """What to build of one exam: which outputs (None: all) and the options (e.g. {"paper": "letter"})."""

    only: Collection[str] | None = None
    options: Mapping[str, str] = field(default_factory=dict)

    def names(self) -> list[str]:
        return [name for name in RENDERERS if self.only is None or name in self.only]


@dataclass
class _Pending:
    """One exam's new generation, complete and waiting to be published."""

    generations: Generations
    folder: Path
    written: list[Path]
    sources: Path  # the exam's source folder, where the outputs' kept state goes once published
    keep: dict[str, str] = field(default_factory=dict)  # file name -> text the renderers asked to keep there


def check_out(out: Path, exams: list[ExamInputs]) -> None:
    """OUT must be a folder, or a name for one in a folder that exists; never the sources folder, in it or
    holding it; and the build's own (pipeline/publish/owned.py): checked before anything is removed."""
    if out.exists() and not out.is_dir():
        raise UsageError(f"error: --out {out}: is a file, expected a folder for the outputs")
    if not out.exists() and not out.absolute().parent.is_dir():
        raise UsageError(f"error: --out {out}: the folder {out.absolute().parent} does not exist; create it or choose another")
    for sources in sorted({each.content.folder.parent for each in exams}):
        owned.apart(out, sources, "--out")
    claim_out(out, [each.content.exam.id for each in exams])


def _render_exam(inputs: ExamInputs, out: Path, plan: Plan, force: bool, result: BuildResult) -> _Pending | None:
    """Render what changed into a new generation; None when nothing changed (nothing to publish)."""
    content = inputs.content
    generations = Generations(out, content.exam.id)
    current = generations.current()
    state = BuildState.load(generations.state_path(current) if current else None)
    if state.problem:
        result.recovered.append(f"{state.problem}: the build state cannot be read; every output of {content.exam.id} is rebuilt")
    final_dir = out / content.exam.id
    view = build_view(inputs)
    chosen = plan.names()
    digests = _digests(view, plan.options, chosen, inputs)
    fresh = {name for name in chosen if not force and current and state.is_fresh(name, digests[name], current)}
    if fresh == set(chosen) and current:
        outcomes = result.outcomes.setdefault(content.exam.id, {})
        for name in chosen:
            result.unchanged.extend(final_dir / f for f in state.renderers[name]["files"])
            result.warnings.extend(f"{content.exam.id}: {w}" for w in state.renderers[name].get("warnings", []))
            outcomes[name] = "unchanged"
        return None
    folder = generations.new()
    ctx = registry.RenderContext(view, folder, final_dir if final_dir.is_dir() else None, options=plan.options, kept=_kept(content.folder))
    try:
        return _fill(generations, folder, ctx, current, state, _Work(digests, fresh, chosen), result, content.folder)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)  # a failed exam leaves nothing behind
        raise


def _digests(view: object, options: Mapping[str, str], chosen: Collection[str], inputs: ExamInputs) -> dict[str, str]:
    """Per chosen renderer, the hash of what its output depends on (see pipeline/publish/incremental.py)."""
    digests: dict[str, str] = {}
    shown: dict[frozenset[str], str] = {}  # outputs that leave out the same fields share one serialization
    for name, entry in RENDERERS.items():
        if name not in chosen:
            continue
        part = registry.output(entry)
        if part.leaves_out not in shown:
            shown[part.leaves_out] = view_text(view, part.leaves_out)
        code = code_digest(part.module if isinstance(part.module, str) else None)  # the renderer's own imports
        own = {key: value for key, value in options.items() if part.options is None or key in part.options}  # `--paper`: the guide's
        shipped = {"npm": vendor.digest(part.npm)} if part.npm else {}  # a missing package stops the build here (exit 2)
        digests[name] = input_digest(shown[part.leaves_out], template_digest(part.templates), code, {"renderer": name, **own, **shipped},
                                     inputs.dates.epoch)
    return digests


@dataclass(frozen=True)
class _Work:
    digests: dict[str, str]  # the chosen outputs' input digests
    fresh: set[str]  # chosen outputs whose inputs did not change
    chosen: list[str]  # the outputs this build is about; the others are carried over as they were


def _carry(state: BuildState, name: str, current: Path | None, folder: Path) -> list[str]:
    """Hard-link an output's files from the current generation; the files (none when it has none)."""
    files = state.renderers.get(name, {}).get("files", []) if current else []
    files = [f for f in files if (current / f).is_file()]
    for relative in files:
        link_or_copy(current / relative, folder / relative)
    return files


def _fill(generations: Generations, folder: Path, ctx: registry.RenderContext, current: Path | None, state: BuildState,
          work: _Work, result: BuildResult, sources: Path) -> _Pending:
    """Run the renderers whose inputs changed into `folder`, hard-link the others' files from `current`."""
    final_dir = generations.link
    pending = _Pending(generations, folder, [], sources, ctx.keep)
    outcomes = result.outcomes.setdefault(generations.exam_id, {})
    for name, entry in RENDERERS.items():
        if name not in work.chosen:
            _carry(state, name, current, folder)  # not asked for: kept as the last build left it
            continue
        if name in work.fresh:
            result.unchanged.extend(final_dir / relative for relative in _carry(state, name, current, folder))
            result.warnings.extend(f"{generations.exam_id}: {w}" for w in state.renderers[name].get("warnings", []))
            outcomes[name] = "unchanged"
            continue
        before = len(ctx.warnings)
        try:
            paths = registry.load(entry)(ctx)
        except UsageError as exc:  # a kept state file it could not read names itself by name: say where it is
            if not any(str(exc).startswith(f"{kept}:") for kept in ctx.kept):
                raise
            raise UsageError(f"{sources}/{exc}") from None
        state.record(name, work.digests[name], [str(p.relative_to(folder)) for p in paths], ctx.warnings[before:])
        result.warnings.extend(f"{generations.exam_id}: {w}" for w in ctx.warnings[before:])
        pending.written.extend(final_dir / p.relative_to(folder) for p in paths)
        outcomes[name] = "written"
    state.renderers = {name: entry for name, entry in state.renderers.items() if name in RENDERERS}  # outputs renamed or gone
    state.path = generations.state_path(folder)
    state.save()
    return pending


def _kept(sources: Path) -> dict[str, str]:
    """The state files the outputs keep in the exam's source folder (`Output.state`), as they are now: read
    as hostile (committed files), bounded in size and nesting, valid JSON, else a usage error at the place."""
    kept = {}
    for entry in RENDERERS.values():
        for name in registry.output(entry).state:
            path = sources / name
            if not (path.exists() or path.is_symlink()):
                continue  # none yet: the renderer starts afresh
            try:
                _, kept[name] = readback.load(path)
            except readback.Unreadable as exc:
                raise UsageError(f"{path}:{exc.line}:{exc.col}: error: {name} cannot be read ({exc.reason}); restore it from git, "
                                 "or delete it (what it keeps then starts afresh)") from None
    return kept


def _keep(done: _Pending) -> None:
    """Write what the renderers asked to keep beside the sources, once their outputs are published; only what
    changed, atomically. A build stopped before this leaves the state one build behind, which the next build
    makes good (its outputs are then rebuilt from the same inputs)."""
    for name, text in sorted(done.keep.items()):
        path = done.sources / name
        try:
            if path.read_text(encoding="utf-8") == text:
                continue
        except (OSError, UnicodeDecodeError):
            pass
        write_atomic(path, text.encode("utf-8"))


def published(out: Path, exam_id: str) -> tuple[str, list[str]]:
    """The generation an exam's link points to, and its files in the order the renderers run."""
    generations = Generations(out, exam_id)
    current = generations.current()
    if current is None:
        return "", []
    state = BuildState.load(generations.state_path(current))
    return current.name, [f for name in RENDERERS for f in state.renderers.get(name, {}).get("files", [])]


def build(exams: list[ExamInputs], out: Path, *, options: Mapping[str, str] | None = None, force: bool = False,
          only: Collection[str] | None = None, plans: Callable[[str], Plan] | None = None) -> BuildResult:
    """Render every exam (its inputs, read once by the command line: pipeline/settings/reader.py); return what
    was written and what was left unchanged.

    `options` are the outputs' options (`RenderContext.options`, e.g. {"paper": "letter"}); each is part of
    the inputs of the outputs that declare it (`Output.options`), so changing one rebuilds those alone. `only`
    names the outputs to build (default: all); `plans`, when given, says both per exam id instead."""
    result = BuildResult()
    markdown.new_build()
    if not RENDERERS or not exams:  # every exam had errors: nothing to publish, no output folder made
        return result
    check_out(out, exams)
    default = Plan(only, options or {})
    with exclusive(out):
        result.recovered.extend(sweep(out))  # what a killed build left, of every exam (built now or not)
        pending: list[_Pending] = []
        try:
            for each in exams:
                exam_id = each.content.exam.id
                try:
                    result.recovered.extend(Generations(out, exam_id).recover())
                    plan = plans(exam_id) if plans else default
                    if (done := _render_exam(each, out, plan, force, result)) is not None:
                        pending.append(done)
                except Exception as exc:  # noqa: BLE001 - one exam's failure (even a bug) never keeps the others' outputs
                    result.failed[exam_id] = exc
            for done in pending:  # only now, with every exam's outputs complete, publish each at once
                done.generations.switch(done.folder)
                result.written.extend(done.written)
                _keep(done)
        finally:
            for done in pending:
                if done.generations.current() != done.folder:
                    shutil.rmtree(done.folder, ignore_errors=True)
                    done.generations.state_path(done.folder).unlink(missing_ok=True)
    return result
