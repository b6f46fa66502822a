"""`python -m pipeline VERB ...`: a thin command line; each verb calls one library function.

Errors the user can fix (`PipelineError`) are printed as a sentence with exit 1; anything else is a
bug, shown as one line, or as a traceback with `--debug`.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import traceback

from pipeline import __version__
from pipeline.cli.commands import COMMANDS
from pipeline.errors import PipelineError


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


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = make_parser(argv).parse_args(argv)
    try:
        return args.run(args)
    except PipelineError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug: say so plainly, the traceback on request
        if args.debug:
            traceback.print_exc()
        else:
            print(f"internal error: {type(exc).__name__}: {exc} (run with --debug for the traceback)", file=sys.stderr)
        return 3
