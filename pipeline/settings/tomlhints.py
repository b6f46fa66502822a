"""TOML syntax errors in `pipeline.toml`, said at the place of the mistake, with the fix.

tomlkit counts columns from 0 ("col 0" for the first character) and, like any parser, stops where it can no
longer go on: for a list never closed that is the next line's key, or the end of the file (where it reports
the character '\\x00'). Here the column is made 1-based, as every other message of the pipeline, and a `[`
or `{` still open where the parser stopped is reported where it opens, as the YAML loader does.
"""

from __future__ import annotations

import re

from pipeline.diagnostics import Position

# Comments and strings first, so a bracket inside them is not taken for one.
STRUCTURE = re.compile(r"#[^\n]*|'{3}.*?'{3}|\"{3}(?:\\.|[^\\])*?\"{3}|'[^'\n]*'|\"(?:\\.|[^\"\\\n])*\"|[\[\]{}]", re.DOTALL)
_CLOSING = {"[": "]", "{": "}"}
_NEXT_SETTING = re.compile(r"""\s*(?:\[|(?:[A-Za-z0-9_-]+|"[^"\n]*"|'[^'\n]*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"\n]*"|'[^'\n]*'))*\s*=)""")


def _offset(text: str, line: int, col: int) -> int:
    """The index in `text` of tomlkit's (1-based line, 0-based column)."""
    lines = text.splitlines(keepends=True)
    return sum(len(each) for each in lines[: line - 1]) + col


def _place(text: str, index: int) -> Position:
    start = text.rfind("\n", 0, index) + 1
    return Position(text.count("\n", 0, index) + 1, index - start + 1)


def _open_brackets(text: str, stop: int) -> list[int]:
    """Where each `[` and `{` still open at `stop` starts."""
    stack: list[int] = []
    for match in STRUCTURE.finditer(text, 0, stop):
        if match[0] in _CLOSING:
            stack.append(match.start())
        elif match[0] in ("]", "}") and stack:
            stack.pop()
    return stack


def words(message: str) -> str:
    """tomlkit's message without its own "at line L col C" (the place leads the line)."""
    return re.sub(r"\s+at line \d+ col \d+$", "", message)


def syntax_error(text: str, line: int, col: int, message: str) -> tuple[Position, str]:
    """Where to report tomlkit's error at (line, 0-based col), and what to say."""
    at_end = "'\\x00'" in message  # tomlkit's end of file, which it places at column 0 of the last line
    stop = len(text) if at_end else min(_offset(text, line, col), len(text))
    at_end = at_end or not text[stop:].strip()
    stack = _open_brackets(text, stop)
    rest = text[stop:].split("\n", 1)[0]
    if stack and (at_end or text[stop] == "\n" or (text.count("\n", stack[-1], stop) and _NEXT_SETTING.match(rest))):
        opener = stack[-1]
        bracket = text[opener]
        where = "the end of the file" if at_end else ("the end of its line" if text[stop] == "\n" else f"line {_place(text, stop).line}")
        header = len(stack) == 1 and not text[text.rfind("\n", 0, opener) + 1:opener].strip()  # `[exams.demo`: a table's name
        after = "the table's name" if header else "its last item"
        return _place(text, opener), (f"invalid TOML: the {bracket} opened here is never closed before {where}; close it with "
                                      f"{_CLOSING[bracket]} after {after}")
    if at_end:
        return _place(text, stop), "invalid TOML: the file ends in the middle of a value; finish the value on this line"
    return _place(text, stop), f"invalid TOML: {words(message)}{_hint(text, stop, stack)}"


def _hint(text: str, stop: int, stack: list[int]) -> str:
    """The fix for the few slips the parser names only by the character it did not expect."""
    before = text[:stop].rstrip()[-1:]
    word = re.match(r"[A-Za-z_][\w-]*", text[stop:])
    if word and before in ("=", "[", ","):
        return f'; text needs quotes: "{word[0]}"'
    if text[stop] == "," and before in (",", "["):
        return "; an empty item between commas: remove this ','"
    if stack and text[stack[-1]] == "[" and before not in (",", "[") and text[stop] in "\"'0123456789[{-+":
        return "; the items of a list are separated by commas: put a ',' before this item"
    return ""
