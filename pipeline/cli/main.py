"""`python -m pipeline VERB ...`: a thin command line; each verb calls one library function.

Exit codes: 0 ok; 1 content errors or audit findings (`PipelineError`); 2 usage and environment problems
(`UsageError`, and any `OSError`: a read-only, missing or full output folder, a path that is a file);
3 only for a bug: one line asking for a report, the traceback in a crash log (`--debug` prints it).
"""

from __future__ import annotations

import argparse
import importlib
import sys

from pipeline import __version__
from pipeline.cli.commands import COMMANDS
from pipeline.cli.crash import environment_message, report_crash
from pipeline.errors import PipelineError, UsageError
from pipeline.text.terminal import for_terminal


def make_parser(argv: list[str]) -> argparse.ArgumentParser:
    """The parser, with the arguments of the verb named in `argv` (only its module is imported)."""
    parser = argparse.ArgumentParser(prog="python -m pipeline", description="Exam-prep content pipeline: validate sources, check citations, render study guide, deck and bank.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--debug", action="store_true", help="show tracebacks")
    verbs = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    chosen = next((arg for arg in argv if not arg.startswith("-")), None)
    for name, command in COMMANDS.items():
        sub = verbs.add_parser(name, help=command.help, description=command.help)
        if name == chosen:
            module = importlib.import_module(command.module)
            module.add_arguments(sub)
            sub.set_defaults(run=module.run)
    return parser


def _shown(exc: Exception) -> str:
    """The message, each of its lines made inert for the terminal (it may quote a file name or a lock)."""
    return "\n".join(for_terminal(line) for line in str(exc).split("\n"))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = make_parser(argv).parse_args(argv)
    try:
        return args.run(args)
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
    except Exception:  # a bug: one line, the traceback in a log
        print(report_crash(args.debug), file=sys.stderr)
        return 3
