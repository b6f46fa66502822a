"""`exam-prep VERB ...` (or `python -m pipeline VERB ...`): a thin command line; each verb calls one library function.

Global options (`--debug`, `-q`, `-v`) are accepted before or after the verb. `pipeline.toml` is read and
checked before any verb runs, so a broken setting fails every command the same way.

Exit codes: 0 ok; 1 content errors or audit findings (`PipelineError`); 2 usage and environment problems
(`UsageError`, a missing dependency, and any `OSError`: a read-only, missing or full output folder, a path
that is a file); 3 only for a bug: one line asking for a report, the traceback in a crash log (`--debug`
prints it).
"""

from __future__ import annotations

import argparse
import importlib
import sys

from pipeline import __version__
from pipeline.cli.commands import COMMANDS
from pipeline.cli.missing import is_missing_dependency
from pipeline.cli.missing import message as missing_message
from pipeline.cli.options import global_options
from pipeline.console.crash import environment_message, report_crash
from pipeline.errors import PipelineError, UsageError
from pipeline.text.prog import prog
from pipeline.text.terminal import for_terminal


def make_parser(argv: list[str]) -> argparse.ArgumentParser:
    """The parser, with the arguments of the verb named in `argv` (only its module is imported)."""
    parser = argparse.ArgumentParser(prog=prog(), parents=[global_options(after_verb=False)],
                                     description="Exam-prep content pipeline: check study sources and their quotes, "
                                                 "and build the study guide, deck, bank, site and LMS exports.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    verbs = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    chosen = next((arg for arg in argv if arg in COMMANDS), None)
    for name, command in COMMANDS.items():
        sub = verbs.add_parser(name, help=command.help, description=command.help, parents=[global_options(after_verb=True)])
        if name == chosen:
            module = importlib.import_module(command.module)
            module.add_arguments(sub)
            sub.set_defaults(run=module.run)
    return parser


def _run(args: argparse.Namespace) -> int:
    from pipeline.console import say
    from pipeline.settings import project as config  # here, not at the top: this module imports nothing from outside the standard library

    say.configure(quiet=args.quiet, verbose=args.verbose)
    # checked for every command: a broken setting is never ignored; a verb with a no-op test (build, variants)
    # checks it past that test (config.checked), as a no-op hit proves these bytes were checked before
    args.settings = config.load(check=not getattr(args, "checks_settings_later", False))
    return args.run(args)


def _shown(exc: Exception) -> str:
    """The message, each of its lines made inert for the terminal (it may quote a file name or a lock)."""
    return "\n".join(for_terminal(line) for line in str(exc).split("\n"))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = make_parser(argv).parse_args(argv)
    try:
        return _run(args)
    except UsageError as exc:
        print(_shown(exc), file=sys.stderr)
        return 2
    except PipelineError as exc:
        print(_shown(exc), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except OSError as exc:  # the machine's or the user's: a folder that is read-only, missing, full, a file
        print(environment_message(exc), file=sys.stderr)
        return 2
    except ModuleNotFoundError as exc:
        if not is_missing_dependency(exc):
            print(report_crash(args.debug), file=sys.stderr)
            return 3
        print(missing_message(exc), file=sys.stderr)
        return 2
    except Exception:  # a bug: one line, the traceback in a log
        print(report_crash(args.debug), file=sys.stderr)
        return 3
