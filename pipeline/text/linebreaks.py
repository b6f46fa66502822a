"""Line breaks: one definition of what ends a line, for every place that reasons about lines.

YAML 1.1 (PyYAML, ruamel) ends a line at CR, LF, NEL (U+0085), LS (U+2028) and PS (U+2029); git, diff
and most editors only at LF. Unicode (and Python's `str.splitlines`) adds VT, FF and the separators
U+001C-U+001E. A character one tool takes for a line break and another does not lets text hide on a
line that looks like another (a key injected after a NEL in a comment). So wherever the pipeline counts,
splits, compares or forbids lines (positions, `--fix-moves`' line check, a one-line export field, the
terminal), it takes the union of them all: the set below, which is exactly what `str.splitlines` knows.
"""

from __future__ import annotations

import re

LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_BREAK = re.compile("\r\n|[" + re.escape(LINE_BREAKS) + "]")
# What a YAML source may not hold raw: a line break that YAML reads but git and editors do not show as one.
HIDDEN_IN_SOURCES = re.compile("\r(?!\n)|[\x85\u2028\u2029]")


def split_lines(text: str) -> list[str]:
    """The lines of `text`, split at every line break (CR LF counts once)."""
    return text.splitlines()


def one_line(text: str, joiner: str = " ") -> str:
    """`text` on one line: every line break (CR LF once) replaced by `joiner`."""
    return _BREAK.sub(joiner, text)


def breaks_as(text: str, newline: str) -> str:
    """Every line break written as `newline` (e.g. GIFT's `\\n` escape)."""
    return _BREAK.sub(lambda _: newline, text)
