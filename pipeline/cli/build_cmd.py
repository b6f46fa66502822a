"""`build`: validate, then render the chosen outputs of each exam; nothing is replaced unless everything succeeded.

Which outputs: `--only guide,deck`, else `outputs` in pipeline.toml (per exam, then the top level), else
all of them. Names and their options (the guide's `--paper`) come from the output registry
(pipeline/render/__init__.py), so a new output appears here, in `--help` and in pipeline.toml by itself.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from pipeline import render as registry
from pipeline.build import BuildResult, Plan, build
from pipeline.check.validate import Validation
from pipeline.cli import say
from pipeline.cli.common import add_source_options, print_summary, print_table, validate_and_report
from pipeline.cli.crash import environment_message
from pipeline.config import Settings
from pipeline.errors import PipelineError, UsageError
from pipeline.text.messages import did_you_mean
from pipeline.text.terminal import for_terminal

DEFAULT_OUT = Path("build")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_source_options(parser, "build")
    add_output_options(parser)
    parser.add_argument("--force", action="store_true", help="rebuild every chosen output, even those whose inputs did not change")


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
    settings: Settings = args.settings
    return args.out or settings.out or DEFAULT_OUT


def plans(args: argparse.Namespace):
    """Per exam id, the outputs and options: the command line over the exam's settings over the top level's."""
    settings: Settings = args.settings

    def plan(exam_id: str) -> Plan:
        own = settings.for_exam(exam_id)
        options = {name: getattr(args, name, None) or own.options.get(name) or option.default
                   for name, (_, option) in registry.options().items()}
        return Plan(args.only or own.outputs, options)

    return plan


def report_outputs(built: BuildResult) -> None:
    """What was written (a line per file), and per exam one line for the outputs left as they were."""
    for sentence in built.recovered:
        say.info(for_terminal(f"build: warning: {sentence}"))  # names and messages may come from files: inert on a terminal
    for warning in built.warnings:
        say.info(for_terminal(f"warning: {warning}"))
    for path in built.written:
        say.info(for_terminal(f"wrote {os.path.relpath(path)}"))
    for path in built.unchanged:
        say.detail(for_terminal(f"unchanged {os.path.relpath(path)}"))
    for exam_id, outcomes in built.outcomes.items():
        same = [name for name, outcome in outcomes.items() if outcome == "unchanged"]
        if same:
            say.info(for_terminal(f"{exam_id}: unchanged: {', '.join(same)} (inputs did not change; --force rebuilds, -v lists the files)"))


def _outputs(result: Validation, built: BuildResult) -> dict[str, str]:
    """Per exam built: how many outputs were written and how many left unchanged."""
    cells = {}
    for content in result.buildable:
        if content.exam.id in built.failed:
            cells[content.exam.id] = "not built (failed)"
            continue
        outcomes = list(built.outcomes.get(content.exam.id, {}).values())
        cells[content.exam.id] = f"{outcomes.count('written')} written, {outcomes.count('unchanged')} unchanged"
    return cells


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
    result = validate_and_report(args, table=False)
    built = build(result.buildable, out_folder(args), force=args.force, plans=plans(args))
    report_outputs(built)
    for exam_id, exc in built.failed.items():
        say.summary(for_terminal(f"build: not built: {exam_id}: {_why(exc)}; its earlier outputs were left as they were"))
    print_table(result, _outputs(result, built))
    if built.failed:  # the worst one decides the exit (a bug: 3, the environment: 2), as if it alone had happened
        raise max(built.failed.values(), key=_gravity)
    if not result.ok:
        failed = ", ".join(c.name for c in result.checks if not c.ok)
        say.summary(for_terminal(f"build: not built: {failed}: fix the errors above; their earlier outputs were left as they were"))
        print_summary(result)
        return 1
    return 0
