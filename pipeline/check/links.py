"""The link check: every link written in a Markdown field must go to an http, https or mailto address.

Renderers drop any other link (`pipeline.text.markdown`), so without this check an author would not learn
that `[notes](../notes.md)` or `[share](smb://server/x)` vanished from the outputs. The error stands at the
line and column where the target is written when it can be found in the file, else at the field.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pipeline.diagnostics import Report
from pipeline.load.schema_errors import field_label
from pipeline.load.yamlsource import PathKey, YamlDocument
from pipeline.position import Position
from pipeline.text.links import allowed
from pipeline.text.markdown import link_targets

# Fields holding Markdown (schema/models.py: the `Markdown` type, and options and answers shown with it).
# A term is shown as Markdown too (an option of a generated question, a matching answer, a card's front).
MARKDOWN_FIELDS = frozenset({"summary", "text", "definition", "note", "notes", "stem", "explanation", "answer", "options", "prompt",
                             "extra_answers", "items", "term"})
MESSAGE = "link to '{target}' is not allowed: only http://, https:// and mailto: links reach the outputs; write the page's full address"


def check_links(doc: YamlDocument | None, report: Report) -> None:
    """An error for every link in `doc` whose target is not an allowed address."""
    if doc is None:
        return
    lines: list[str] | None = None
    for path, text in markdown_strings(doc.data, ()):
        for target in link_targets(text) if ("[" in text or "<" in text) else []:
            if allowed(target):
                continue
            lines = lines if lines is not None else source_lines(doc)
            where = locate(lines, doc.position(path), target, text.count("\n") + 2)
            report.error(doc.path, where, f"{field_label(path)}: {MESSAGE.format(target=target[:200])}", "link")


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
