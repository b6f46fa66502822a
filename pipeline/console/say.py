"""What the command line prints, and how much: problems on stdout, progress and summaries on stderr.

`-q` keeps only problems and the closing summary line, `-v` adds the details (every output written or left
unchanged, every quote not yet checked). On a terminal, `error` and `warning` are coloured (rich decides:
never when the stream is not a terminal, never when NO_COLOR is set, as no-color.org asks).
"""

from __future__ import annotations

import sys
from typing import TextIO

from rich.console import Console
from rich.text import Text

QUIET, NORMAL, VERBOSE = 0, 1, 2
_level = NORMAL
_consoles: dict[int, Console] = {}
_STYLES = {"error": "bold red", "warning": "yellow", "fixed": "green"}


def configure(quiet: bool = False, verbose: bool = False) -> None:
    global _level
    _level = QUIET if quiet else VERBOSE if verbose else NORMAL


def verbose() -> bool:
    return _level >= VERBOSE


def _console(stream: TextIO) -> Console:
    """One console per stream object (tests swap sys.stdout), never wrapping: a line is one problem."""
    console = _consoles.get(id(stream))
    if console is None or console.file is not stream:
        console = _consoles[id(stream)] = Console(file=stream, highlight=False, markup=False, emoji=False, soft_wrap=True)
    return console


def problem(line: str) -> None:
    """A `path:line:col: error: message [code]` line on stdout, its severity coloured on a terminal."""
    console = _console(sys.stdout)
    if not console.is_terminal or console.no_color:
        print(line)
        return
    text = Text(line)
    for word, style in _STYLES.items():
        start = line.find(f": {word}: ")
        if start >= 0:
            text.stylize(style, start + 2, start + 2 + len(word))
            break
    console.print(text)


def info(message: str) -> None:
    """Progress and outcomes on stderr (what was written, what comes next); `-q` hides them."""
    if _level >= NORMAL:
        print(message, file=sys.stderr)


def detail(message: str) -> None:
    """What only `-v` shows."""
    if _level >= VERBOSE:
        print(message, file=sys.stderr)


def summary(message: str) -> None:
    """The closing line of a command: always printed, even under `-q`."""
    print(message, file=sys.stderr)
