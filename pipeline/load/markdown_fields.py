"""Where Markdown is in a source file: the fields that hold it, every such string with its path, and the
line and column where a piece of it is written (the image, link and formula checks report there).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pipeline.diagnostics import Position
from pipeline.load.yamlsource import PathKey, YamlDocument

# Fields holding Markdown (schema/models.py: the `Markdown` type, and options and answers shown with it).
# A term is shown as Markdown too (an option of a generated question, a matching answer, a card's front).
MARKDOWN_FIELDS = frozenset({"summary", "text", "essential", "definition", "note", "notes", "stem", "explanation", "answer", "options", "prompt",
                             "extra_answers", "items", "term"})


def markdown_strings(data: Any, path: PathKey, in_field: bool = False) -> Iterator[tuple[PathKey, str]]:
    """Every string of a Markdown field in `data`, with its path (the formula check reads them too)."""
    if isinstance(data, str) and in_field:
        yield path, data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield from markdown_strings(value, path + (key,), key in MARKDOWN_FIELDS)
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from markdown_strings(value, path + (i,), in_field)


def source_lines(doc: YamlDocument) -> list[str]:
    try:
        return doc.path.read_text(encoding="utf-8-sig").splitlines()
    except (OSError, UnicodeDecodeError):
        return []


def locate(lines: list[str], start: Position, target: str, span: int) -> Position:
    """Where `target` is written, searching the field's lines from its start; the start when not found."""
    for number in range(start.line, min(start.line + span, len(lines) + 1)):
        line = lines[number - 1]
        col = line.find(target, start.col - 1 if number == start.line else 0)
        if col >= 0:
            return Position(number, col + 1)
    return start
