"""Reading back a JSON file the pipeline wrote (a citation lock, a deck state, a build state), as hostile.

These files are committed or left on disk, so anyone can edit them: a lock nested a hundred thousand
levels deep would end `json.loads` in a RecursionError, a gigabyte one would fill the memory. So a file is
read only when it is a regular file of at most MAX_BYTES, in UTF-8, nested at most MAX_DEPTH levels (checked
by one linear scan before the parser recurses), and every problem is an `Unreadable` with the line and
column where it is. `position` then finds where any value stands, for the checks of each file's fields, and
`checked` validates a parsed file against a pydantic model of it: a field of the wrong type (a list where a
string belongs) is an `Unreadable` naming the field, at its place, never a crash further on.
"""

from __future__ import annotations

import json
import os
import re
import stat
from json.decoder import scanstring
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:  # pydantic is imported by `checked` alone: a no-op build reads records without it
    from pydantic import BaseModel

_M = TypeVar("_M", bound="BaseModel")
MAX_BYTES = 64_000_000  # a lock of 30,000 quotes with their passages is about 40 MB
MAX_DEPTH = 16  # the files written need 4 levels
_SPACE = re.compile(r"[ \t\n\r]*")
_STRUCTURE = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)  # strings skipped whole, brackets counted
_DECODER = json.JSONDecoder()


class Unreadable(Exception):
    """Why the file cannot be read, and where (1-based line and column)."""

    def __init__(self, reason: str, line: int = 1, col: int = 1) -> None:
        super().__init__(reason)
        self.reason, self.line, self.col = reason, line, col


def line_col(text: str, index: int) -> tuple[int, int]:
    """1-based line and column of `text[index]` (JSON's own line breaks: LF, or CR LF)."""
    return text.count("\n", 0, index) + 1, index - (text.rfind("\n", 0, index) + 1) + 1


def read_text(path: Path, max_bytes: int = MAX_BYTES) -> str:
    """The file's text; `Unreadable` when it is not a regular file, too big or not UTF-8."""
    info = os.stat(path)  # OSError (missing, permission) is the caller's: an environment problem
    if not stat.S_ISREG(info.st_mode):
        raise Unreadable("not a regular file")
    with open(path, "rb") as handle:
        data = handle.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise Unreadable(f"over {max_bytes:,} bytes, far more than the pipeline writes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start].decode("utf-8")
        raise Unreadable(f"not UTF-8 (byte 0x{data[exc.start]:02x})", *line_col(before, len(before))) from None


def check_depth(text: str, max_depth: int = MAX_DEPTH) -> None:
    """`Unreadable` at the bracket that opens level `max_depth + 1`: in linear time, without recursion."""
    depth = 0
    for match in _STRUCTURE.finditer(text):
        token = match[0]
        if token in "[{":
            depth += 1
            if depth > max_depth:
                raise Unreadable(f"nested more than {max_depth} levels deep, far more than the pipeline writes", *line_col(text, match.start()))
        elif token in "]}":
            depth -= 1


def load(path: Path, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH) -> tuple[object, str]:
    """The parsed file and its text (to place problems found in its fields, see `position`)."""
    text = read_text(path, max_bytes)
    return parse(text, max_depth), text


def parse(text: str, max_depth: int = MAX_DEPTH) -> object:
    """The parsed text of a file `read_text` read (as `load`)."""
    check_depth(text, max_depth)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise Unreadable(exc.msg, exc.lineno, exc.colno) from None


def position(text: str, path: tuple[str | int, ...]) -> tuple[int, int]:
    """Line and column of the value at `path` (keys and list indexes) in `text`, a JSON document that
    parsed; of its nearest existing parent when the path goes further than the document."""
    at = _SPACE.match(text).end()
    for key in path:
        found = _child(text, at, key)
        if found is None:
            break
        at = found
    return line_col(text, at)


def _child(text: str, at: int, key: str | int) -> int | None:
    """Where the member `key` of the object (or the item `key` of the array) starting at `at` begins."""
    opening = text[at] if at < len(text) else ""
    if opening not in "{[" or not opening:
        return None
    at = _SPACE.match(text, at + 1).end()
    index = 0
    while at < len(text) and text[at] not in "}]":
        if opening == "{":
            name, at = scanstring(text, at + 1)
            at = _SPACE.match(text, _SPACE.match(text, at).end() + 1).end()  # past the colon
            if name == key:
                return at
        elif index == key:
            return at
        _, at = _DECODER.raw_decode(text, at)
        at = _SPACE.match(text, at).end()
        if at < len(text) and text[at] == ",":
            at = _SPACE.match(text, at + 1).end()
        index += 1
    return None


def checked(model: type[_M], raw: object, text: str) -> _M:
    """`raw` (the parsed `text`) validated as `model`; `Unreadable` naming the first field that is not of its
    type, at its line and column (a list where a string belongs is a broken file, never a crash)."""
    from pydantic import ValidationError

    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = _in_document(raw, tuple(first["loc"]))
        named = (*where, first["loc"][-1]) if first["type"] == "missing" and first["loc"] else where
        field = ".".join(str(p) for p in named) or "the file"
        raise Unreadable(f"{field}: {first['msg']}", *position(text, where)) from None


def _in_document(raw: object, loc: tuple) -> tuple[str | int, ...]:
    """The part of pydantic's error location that names keys and indexes of the document (pydantic adds
    the names of union members and validators, which are not in the file)."""
    path: list[str | int] = []
    at = raw
    for key in loc:
        inside = (isinstance(at, dict) and isinstance(key, str) and key in at) or \
            (isinstance(at, list) and isinstance(key, int) and 0 <= key < len(at))
        if inside:
            at = at[key]  # type: ignore[index]
            path.append(key)
    return tuple(path)
