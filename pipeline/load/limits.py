"""Bounds on what a source file may make the loader do, for sources written by anyone.

YAML is a small language with big corners: an alias can stand for a whole subtree, so a few lines of
aliases of aliases expand to billions of values ("billion laughs"); nesting is read recursively, so deep
enough brackets exhaust the stack; tags name constructors; escapes write control characters that no
editor shows. A source file name can also lead to something that is not a file (a FIFO that never ends,
/dev/zero, a symlink loop). Each of these is an error naming the file and, where there is one, the line
and column, instead of a hang, a crash or gigabytes of memory:

- `read_regular`: only regular files (symlinks followed), at most MAX_FILE_BYTES;
- `BoundedLoader`: nesting at most MAX_DEPTH, at most MAX_NODES values counting what aliases expand to,
  the error at the alias or the node that goes over;
- `scalar_problem`: only the tags of plain YAML data, no control characters but tab and line break, no
  character XML cannot hold (U+FFFE, U+FFFF, a lone surrogate: every XML export would fail to load);
- `hidden_line_break`: no CR alone, NEL, LS or PS in the file: YAML ends a line there, git and editors do
  not, so text after one (a whole key point) would hide on a line that reads as a comment;
- `outside_sources`: a symbolic link that leads out of the sources folder is never followed (a pull
  request could otherwise make CI read, and quote back, any file of the machine).
"""

from __future__ import annotations

import os
import re
import stat
import unicodedata
from pathlib import Path

import yaml
from yaml.composer import ComposerError
from yaml.events import AliasEvent

from pipeline.diagnostics import Position
from pipeline.errors import SourceError
from pipeline.text.linebreaks import HIDDEN_IN_SOURCES

MAX_FILE_BYTES = 5_000_000  # a 5,000-question objective is about 2 MB
MAX_DEPTH = 40  # the schema needs 5 levels
MAX_NODES = 500_000
PLAIN_TAGS = frozenset(f"tag:yaml.org,2002:{name}" for name in ("str", "int", "float", "bool", "null", "timestamp", "map", "seq", "merge"))
_ALLOWED_CONTROLS = frozenset("\t\n")
_NOT_XML = re.compile("[\ud800-\udfff\ufffe\uffff]")  # outside XML 1.0's Char production (the Cc ones aside)
_LINE_BREAK_NAMES = {"\r": "CR (a carriage return without a line feed)", "\x85": "NEL (U+0085)", "\u2028": "LS (U+2028)", "\u2029": "PS (U+2029)"}
_ESCAPE = re.compile(r"\\(x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|[0abtnvfre N_LP\"/\\])")
_SHORT = {"0": "\0", "a": "\a", "b": "\b", "t": "\t", "n": "\n", "v": "\v", "f": "\f", "r": "\r", "e": "\x1b", "N": "\x85"}


def outside_sources(path: Path, root: Path) -> str | None:
    """A sentence when `path`, or a folder on its way, is a symbolic link leading out of `root`; nothing
    is read from it, and its target is not named (the message must not tell what is out there)."""
    try:
        real, top = path.resolve(), root.resolve()
    except (OSError, RuntimeError):  # a loop: read_regular says so
        return None
    if real == top or top in real.parents:
        return None
    return ("is a symbolic link (or inside one) leading out of the sources folder; sources are read only from inside it, "
            "so copy the file in instead of linking to it")


def linked_folders(folder: Path) -> list[Path]:
    """Every symbolic link to a folder below `folder` (hidden folders aside, as the sources are listed):
    the file search does not follow them, so each is said instead of being skipped in silence."""
    found = []
    for directory, folders, _ in os.walk(folder):  # followlinks=False: a link is seen, never entered
        folders[:] = [name for name in folders if not name.startswith(".")]
        found += [Path(directory) / name for name in folders if (Path(directory) / name).is_symlink()]
    return sorted(found)


def hidden_line_break(text: str) -> tuple[Position, str] | None:
    """Where the file holds a line break YAML reads but git and editors do not show (see the module doc)."""
    found = HIDDEN_IN_SOURCES.search(text)
    if found is None:
        return None
    name = _LINE_BREAK_NAMES[found[0]]
    return reader_position(text, found.start()), (f"{name} in the file: YAML ends a line there but git and most editors do not, "
                                                  "so what follows would be hidden; use a plain line break (LF or CR LF)")


def read_regular(path: Path) -> bytes:
    """The bytes of `path` when it is a regular file of sensible size; a SourceError naming it otherwise."""
    where = Position(1, 1)
    try:
        info = os.stat(path)  # follows symlinks: a link to a FIFO or a device is refused like one
    except OSError as exc:
        raise SourceError(path, where, _unreadable(exc)) from None
    if stat.S_ISDIR(info.st_mode):
        raise SourceError(path, where, "is a folder, expected a YAML file")
    if not stat.S_ISREG(info.st_mode):
        raise SourceError(path, where, f"is a {_kind(info.st_mode)}, not a regular file; only files are read as sources")
    if info.st_size > MAX_FILE_BYTES:
        raise SourceError(path, where, f"is {info.st_size:,} bytes, over the {MAX_FILE_BYTES:,}-byte limit for a source file; split it")
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise SourceError(path, where, _unreadable(exc)) from None
    if len(data) > MAX_FILE_BYTES:  # grew since stat
        raise SourceError(path, where, f"is over the {MAX_FILE_BYTES:,}-byte limit for a source file; split it")
    return data


def _unreadable(exc: OSError) -> str:
    if isinstance(exc, FileNotFoundError):
        return "file not found (or a symbolic link to nothing)"
    if isinstance(exc, PermissionError):
        return "permission denied: the file cannot be read"
    if exc.errno == 40:  # ELOOP
        return "a symbolic link loop; point the link at a file"
    return f"cannot be read ({exc.strerror or exc})"


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISFIFO, "FIFO (named pipe)"), (stat.S_ISCHR, "character device"), (stat.S_ISBLK, "block device"), (stat.S_ISSOCK, "socket")):
        if test(mode):
            return name
    return "special file"


class BoundedLoader(yaml.SafeLoader):
    """PyYAML's safe loader, composing at most MAX_DEPTH levels and MAX_NODES values (aliases expanded)."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth, self._values = 0, 0
        self._sizes: dict[int, int] = {}  # id(node) -> values it stands for, its aliases expanded

    def compose_node(self, parent: yaml.Node | None, index: object) -> yaml.Node:
        if self.check_event(AliasEvent):
            event = self.peek_event()
            target = self.anchors.get(event.anchor)
            self._count(self._sizes.get(id(target), 1), event.start_mark, alias=True)
            return super().compose_node(parent, index)
        self._depth += 1
        if self._depth > MAX_DEPTH:
            raise ComposerError(None, None, f"nested more than {MAX_DEPTH} levels deep; the schema needs far fewer", self.peek_event().start_mark)
        before = self._values
        node = super().compose_node(parent, index)
        self._depth -= 1
        self._count(1, node.start_mark)
        self._sizes[id(node)] = self._values - before
        return node

    def _count(self, values: int, mark: yaml.Mark, alias: bool = False) -> None:
        self._values += values
        if self._values > MAX_NODES:
            what = "aliases expand to" if alias else "the file holds"
            raise ComposerError(None, None, f"{what} more than {MAX_NODES:,} values (an alias bomb?); write the values out", mark)


def reader_position(text: str, index: int) -> Position:
    """Line and column of a character index, for PyYAML's ReaderError (which gives only the index)."""
    line = text.count("\n", 0, index) + 1
    return Position(line, index - (text.rfind("\n", 0, index) + 1) + 1)


def scalar_problem(node: yaml.Node, value: object, text: str) -> tuple[Position, str] | None:
    """An unknown tag on any node, or a control character in a string: where and what, or None."""
    if node.tag not in PLAIN_TAGS:
        return _at(node), f"unknown tag '{node.tag}'; sources are plain YAML data (remove the tag)"
    if not isinstance(value, str):
        return None
    bad = next((c for c in value if unicodedata.category(c) == "Cc" and c not in _ALLOWED_CONTROLS), None)
    if bad is not None:
        where = _escape_position(node, bad, text) or _at(node)
        return where, f"control character U+{ord(bad):04X} in the text; remove it (it would corrupt the outputs)"
    if found := _NOT_XML.search(value):
        where = _escape_position(node, found[0], text) or _at(node)
        return where, (f"character U+{ord(found[0]):04X} in the text: XML cannot hold it, so the Moodle, QTI and Canvas exports "
                       "would not load; remove it")
    return None


def _at(node: yaml.Node) -> Position:
    return Position(node.start_mark.line + 1, node.start_mark.column + 1)


def _escape_position(node: yaml.Node, bad: str, text: str) -> Position | None:
    """Where the escape sequence that wrote `bad` stands inside a double-quoted scalar."""
    start, end = node.start_mark.index, node.end_mark.index
    for match in _ESCAPE.finditer(text, start, end):
        code = match[1]
        char = _SHORT.get(code) if len(code) == 1 else chr(int(code[1:], 16))
        if char == bad:
            return reader_position(text, match.start())
    return None
