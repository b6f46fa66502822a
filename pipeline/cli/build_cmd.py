"""`build`: validate, then render the chosen outputs of each exam; nothing is replaced unless everything succeeded.

Which outputs: `--only guide,deck`, else `outputs` in pipeline.toml (per exam, then the top level), else
all of them. Names and their options (the guide's `--paper`) come from the output registry
(pipeline/render/__init__.py), so a new output appears here, in `--help` and in pipeline.toml by itself.

Before the checks are loaded, the bytes the build reads are hashed (pipeline/publish/noop.py): when they
and the settings are those of the last successful build into OUT and its outputs are all still there,
the build says again what that one said and stops. The checks, the view and the renderers are imported
only past that point.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pipeline import render as registry
from pipeline.cli.common import (
    add_source_options,
    print_sorted,
    print_summary,
    print_table,
    shown_diagnostics,
    summary,
    table_rows,
    validate_and_report,
)
from pipeline.console import say
from pipeline.console.crash import environment_message
from pipeline.diagnostics import Diagnostic, Position, Severity
from pipeline.errors import PipelineError, UsageError
from pipeline.publish import noop
from pipeline.settings import project as config
from pipeline.settings.project import Settings, Unchecked
from pipeline.settings.reader import resolve_today
from pipeline.text.messages import did_you_mean
from pipeline.text.terminal import for_terminal

if TYPE_CHECKING:
    from pipeline.build import BuildResult, Plan
    from pipeline.check.validate import Validation

DEFAULT_OUT = Path("build")
PRINT_ONLY = frozenset({"verbose", "quiet", "debug", "run", "command"})  # settings that change what is printed, not built


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_source_options(parser, "build")
    add_output_options(parser)
    parser.add_argument("--force", action="store_true", help="rebuild every chosen output, even those whose inputs did not change")
    parser.set_defaults(checks_settings_later=True)  # pipeline.toml is checked past the no-op test (cli/main.py)


def add_output_options(parser: argparse.ArgumentParser) -> None:
    """--out, --only and every option an output declares (also used by `serve`)."""
    parser.add_argument("--out", type=Path, default=None, metavar="DIR", help="the output folder (default: `out` in pipeline.toml, else build)")
    parser.add_argument("--only", type=only_names, default=None, metavar="NAME[,NAME...]",
                        help=f"build only these outputs (default: `outputs` in pipeline.toml, else all): {registry.listing()}")
    for name, (owner, option) in registry.options().items():
        parser.add_argument(f"--{name}", choices=option.choices, default=None, type=str.lower,
                            help=f"{option.help} ({owner}; default: `{name}` in pipeline.toml, else {option.default})")


def only_names(text: str) -> tuple[str, ...]:
    """`guide,deck` -> ("guide", "deck"), aliases resolved; an unknown name is a usage error with the closest."""
    names: list[str] = []
    words = [*registry.output_names(), *(a for e in registry.RENDERERS.values() for a in registry.output(e).aliases)]
    for word in filter(None, (w.strip() for w in text.split(","))):
        name = registry.resolve_output(word)
        if name is None:
            raise argparse.ArgumentTypeError(f"no output is called '{word}'{did_you_mean(word.lower(), words)} (outputs: {registry.listing()})")
        if name not in names:
            names.append(name)
    if not names:
        raise argparse.ArgumentTypeError(f"name at least one output: {', '.join(registry.output_names())}")
    return tuple(names)


def out_folder(args: argparse.Namespace) -> Path:
    settings: Settings | Unchecked = args.settings
    return args.out or settings.out or DEFAULT_OUT


def plans(args: argparse.Namespace):
    """Per exam id, the outputs and options: the command line over the exam's settings over the top level's."""
    settings: Settings = args.settings

    from pipeline.build import Plan

    def plan(exam_id: str) -> Plan:
        own = settings.for_exam(exam_id)
        options = {name: getattr(args, name, None) or own.options.get(name) or option.default
                   for name, (_, option) in registry.options().items()}
        return Plan(args.only or own.outputs, options)

    return plan


def report_outputs(built: BuildResult, out: Path) -> None:
    """Per exam one line: which outputs were written and which left as they were; -v adds a line per file."""
    for sentence in built.recovered:
        say.info(for_terminal(f"build: warning: {sentence}"))  # names and messages may come from files: inert on a terminal
    for warning in built.warnings:
        say.info(for_terminal(f"warning: {warning}"))
    for path in built.written:
        say.detail(for_terminal(f"wrote {os.path.relpath(path)}"))
    for path in built.unchanged:
        say.detail(for_terminal(f"unchanged {os.path.relpath(path)}"))
    for exam_id, outcomes in built.outcomes.items():
        if exam_id not in built.failed and outcomes:
            say.info(for_terminal(exam_line(exam_id, outcomes, out)))


def exam_line(exam_id: str, outcomes: dict[str, str], out: Path) -> str:
    """`demo: wrote guide, deck in build/demo/; unchanged: bank (inputs did not change; ...)`: what became of each output."""
    wrote = [name for name, outcome in outcomes.items() if outcome == "written"]
    same = [name for name, outcome in outcomes.items() if outcome == "unchanged"]
    parts = [f"wrote {', '.join(wrote)} in {os.path.relpath(out / exam_id)}/"] if wrote else []
    if same:
        parts.append(f"unchanged: {', '.join(same)} (inputs did not change; --force rebuilds, -v lists the files)")
    return f"{exam_id}: {'; '.join(parts)}" + ("" if same else " (-v lists the files)")


def _outputs(outcomes: dict[str, dict[str, str]], failed: dict | None = None) -> dict[str, str]:
    """Per exam built: how many outputs were written and how many left unchanged."""
    cells = {}
    for exam_id, per_output in outcomes.items():
        if failed and exam_id in failed:
            cells[exam_id] = "not built (failed)"
            continue
        values = list(per_output.values())
        cells[exam_id] = f"{values.count('written')} written, {values.count('unchanged')} unchanged"
    return cells


def settings(args: argparse.Namespace) -> dict[str, Any]:
    """Every setting that decides what a build does (any option a verb adds counts, pipeline.toml's settings
    included, unless it only changes what is printed), "today" resolved and SOURCE_DATE_EPOCH: part of the
    no-op fingerprint."""
    values = {k: str(v.absolute()) if isinstance(v, Path) else v for k, v in vars(args).items() if k not in PRINT_ONLY}
    loaded = sys.modules.get("pipeline.build")  # in a process that swapped the renderers (tests), which ones
    renderers = [f"{name}={entry!r}" for name, entry in loaded.RENDERERS.items()] if loaded else None
    return {**values, "out": str(out_folder(args).absolute()), "today": resolve_today(args.today).isoformat(),
            "SOURCE_DATE_EPOCH": os.environ.get("SOURCE_DATE_EPOCH", ""), "renderers": renderers}


def _why(exc: Exception) -> str:
    if isinstance(exc, PipelineError):
        return str(exc).removeprefix("error: ")
    if isinstance(exc, OSError):
        return environment_message(exc).removeprefix("error: ")
    return "an internal error (reported below)"


def _gravity(exc: Exception) -> int:
    return 1 if isinstance(exc, PipelineError) and not isinstance(exc, UsageError) else 2 if isinstance(exc, PipelineError | OSError) else 3


def run(args: argparse.Namespace) -> int:
    """Each exam without errors is built, whatever the others hold; the exit is 1 when any exam has errors."""
    out, chosen = out_folder(args), settings(args)
    fingerprint = None if args.force else noop.fingerprint(args.sources, chosen)
    if fingerprint and (record := noop.recall(out, fingerprint)) is not None:
        return _replay(record, out)
    from pipeline.build import build  # past the no-op check: the checks, the view and the renderers
    from pipeline.settings.reader import Reader

    args.settings = config.checked(args.settings)  # past the no-op test: every problem of pipeline.toml, as for any command
    out = out_folder(args)
    reader = Reader(args.today, stats=True)  # the build's inputs, read once: validate checks them, build renders them
    result = validate_and_report(args, table=False, reader=reader)
    built = build([reader(content) for content in result.buildable], out, force=args.force, plans=plans(args))
    report_outputs(built, out)
    for exam_id, exc in built.failed.items():
        say.summary(for_terminal(f"build: not built: {exam_id}: {_why(exc)}; its earlier outputs were left as they were"))
    print_table(_rows(table_rows(result), built), _outputs({c.exam.id: built.outcomes.get(c.exam.id, {}) for c in result.buildable}, built.failed))
    if built.failed:  # the worst one decides the exit (a bug: 3, the environment: 2), as if it alone had happened
        raise max(built.failed.values(), key=_gravity)
    if not result.ok:
        failed = ", ".join(c.name for c in result.checks if not c.ok)
        say.summary(for_terminal(f"build: not built: {failed}: fix the errors above; their earlier outputs were left as they were"))
        print_summary(result)
        return 1
    # kept only when nothing changed while building: the record must describe what was read
    if fingerprint and result.checks and noop.fingerprint(args.sources, chosen) == fingerprint:
        noop.remember(out, fingerprint, _record(result, built, out))
    return 0


def _rows(rows: list[tuple[str, int, int]], built: BuildResult) -> list[tuple[str, int, int]]:
    """The table's rows, each exam's warnings counting the outputs' warnings printed above it too."""
    return [(name, errors, warnings + sum(w.startswith(f"{name}: ") for w in built.warnings)) for name, errors, warnings in rows]


def _diagnostic_data(d: Diagnostic) -> list:
    return [str(d.path.absolute()), d.position.line, d.position.col, d.severity.value, d.message, d.code]


def _record(result: Validation, built: BuildResult, out: Path) -> dict[str, Any]:
    """What this build printed, and the generation each exam's link points to, for `noop.recall`."""
    from pipeline.build import published

    exams = []
    for check in result.checks:
        generation, files = published(out, check.name)
        warnings = [w.removeprefix(f"{check.name}: ") for w in built.warnings if w.startswith(f"{check.name}: ")]
        exams.append({"id": check.name, "generation": generation, "files": files, "warnings": warnings,
                      "outputs": list(built.outcomes.get(check.name, {})), "state": noop.state_digest(out, generation)})
    modes = (("grouped", False), ("verbose", True))
    shown = {mode: [_diagnostic_data(d) for c in result.checks for d in shown_diagnostics(c, verbose)] for mode, verbose in modes}
    return {"exams": exams, "diagnostics": shown, "table": {mode: _rows(table_rows(result, verbose), built) for mode, verbose in modes},
            "summary": {mode: summary(result, verbose) for mode, verbose in modes}}


def _replay(record: dict[str, Any], out: Path) -> int:
    """Print what the recorded build printed, every output now unchanged."""
    mode = "verbose" if say.verbose() else "grouped"
    rows = record["diagnostics"][mode]
    print_sorted([Diagnostic(Path(p), Position(line, col), Severity(sev), message, code) for p, line, col, sev, message, code in rows])
    print_summary(list(record["summary"][mode]))
    for exam in record["exams"]:
        for warning in exam["warnings"]:
            say.info(for_terminal(f"warning: {exam['id']}: {warning}"))
        for name in exam["files"]:
            say.detail(for_terminal(f"unchanged {os.path.relpath(out / exam['id'] / name)}"))
        if exam["outputs"]:
            say.info(for_terminal(exam_line(exam["id"], dict.fromkeys(exam["outputs"], "unchanged"), out)))
    outcomes = {e["id"]: dict.fromkeys(e["outputs"], "unchanged") for e in record["exams"]}
    print_table([tuple(row) for row in record["table"][mode]], _outputs(outcomes))
    return 0
