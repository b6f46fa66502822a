"""The global options, accepted before the verb (`exam-prep -q build`) and after it (`exam-prep build -q`)."""

from __future__ import annotations

import argparse


def global_options(*, after_verb: bool) -> argparse.ArgumentParser:
    """The options every verb takes. After the verb their default is SUPPRESS, so that an option given
    before the verb is not reset by the verb's parser."""
    parent = argparse.ArgumentParser(add_help=False)
    default = (lambda value: argparse.SUPPRESS) if after_verb else (lambda value: value)
    group = parent.add_argument_group("global options (before or after the command)")
    group.add_argument("--debug", action="store_true", default=default(False), help="show tracebacks")
    loud = group.add_mutually_exclusive_group()
    loud.add_argument("-q", "--quiet", action="store_true", default=default(False), help="print only problems and the closing summary")
    loud.add_argument("-v", "--verbose", action="store_true", default=default(False),
                      help="print details too: every output written or unchanged, every quote not yet checked")
    return parent
