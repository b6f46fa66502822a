"""The name the pipeline was started by, for messages that tell the author what to run next.

Installed, the command is `exam-prep` (pyproject.toml's console script); from a checkout it is also
`python -m pipeline`, and the Makefile's targets (`make examples ARGS="..."`) run that. A message names the
command the way the author just ran it, so it can be pasted back as it is: `command("examples", "--update")`
is `exam-prep examples --update` after `pip install`, `make examples ARGS="--update"` under make.
"""

from __future__ import annotations

import shlex

COMMAND = "exam-prep"
# The Makefile's targets that run the verb of the same name (`make examples ARGS=...`). A verb without one is
# named as the checkout's installed command, which `make build` sets up.
MAKE_TARGETS = frozenset({"build", "validate", "audit", "examples", "serve", "schema"})
IN_CHECKOUT = ".venv/bin/exam-prep"
_started_as = COMMAND
_by_make = False


def started_as(name: str) -> None:
    """Set by pipeline/__main__.py: `python -m pipeline` was typed."""
    global _started_as
    _started_as = name


def run_by_make() -> None:
    """Set by the entry point when the Makefile started the run (it exports EXAM_PREP_RUN_BY=make)."""
    global _by_make
    _by_make = True


def prog() -> str:
    """The program as started (`exam-prep`, `python -m pipeline`): argparse's usage lines."""
    return _started_as


def command(verb: str, *args: str) -> str:
    """The command line that runs `verb` with `args`, as the author would type it where they ran this one."""
    if not _by_make:
        return shlex.join([*_started_as.split(), verb, *args])
    if verb not in MAKE_TARGETS:
        return shlex.join([IN_CHECKOUT, verb, *args])
    return f"make {verb}" + (f' ARGS="{shlex.join(args)}"' if args else "")
