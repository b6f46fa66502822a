"""YAML syntax errors, said to an author: where the mistake is (not where the parser gave up) and the fix.

PyYAML stops where it can no longer make sense of the text, which is often a line or more after the
mistake, and says so in its own terms ("expected <block end>, but found '<scalar>'"). The mistakes
authors make are few and recognisable; each gets its place and a hint here:

- a tab in the indentation (YAML indents with spaces only);
- a quote that is never closed, or closed only lines later, having swallowed the keys between;
- an unquoted value starting with `{{c1::`, which YAML reads as a mapping;
- a `: ` inside an unquoted value, or a line indented deeper than the key above it.

Anything else keeps the parser's words, at the parser's place.
"""

from __future__ import annotations

import re

import yaml

from pipeline.position import Position

UNQUOTED_CLOZE = re.compile(r"^(\s*(?:-\s+)?(?:[A-Za-z_][\w-]*:[ \t]+|-\s+))(\{\{c\d+::.*?)\s*$")
SWALLOWED_KEY = re.compile(r"\n\s*(?:-\s+)?[A-Za-z_][\w-]*:(?:\s|$)")


def _pos(mark: yaml.Mark) -> Position:
    return Position(mark.line + 1, mark.column + 1)


def unquoted_cloze(text: str, up_to_line: int | None = None) -> tuple[Position, str] | None:
    """The first `key: {{c1::...}}` written without quotes (up to `up_to_line`), with the fix."""
    for number, line in enumerate(text.splitlines(), start=1):
        if up_to_line is not None and number > up_to_line:
            return None
        found = UNQUOTED_CLOZE.match(line)
        if found:
            value = found.group(2).replace('"', '\\"')
            fix = f'{found.group(1).strip()} "{value}"'
            return Position(number, len(found.group(1)) + 1), (
                f"invalid YAML: a value starting with {{{{ is read as a YAML mapping, not text; quote the text: {fix}")
    return None


def _swallowing_quote(text: str, stop: yaml.Mark) -> tuple[Position, str] | None:
    """The last quoted value before `stop` that runs over several lines and over what look like keys:
    a quote left open, closed only by the next quote further down."""
    last = None
    try:
        for token in yaml.scan(text, Loader=yaml.SafeLoader):
            if token.start_mark.index >= stop.index:
                break
            if isinstance(token, yaml.ScalarToken) and token.style in ('"', "'") and token.end_mark.line > token.start_mark.line:
                last = token
    except yaml.YAMLError:
        pass  # the scan stops at the same mistake; what was seen before it is enough
    if last is None or not SWALLOWED_KEY.search(text[last.start_mark.index:last.end_mark.index]):
        return None
    quote = last.style
    return _pos(last.start_mark), (f"invalid YAML: the {quote} opened here is not closed on its line; it runs on to line "
                                   f"{last.end_mark.line + 1}, taking the keys between as text; close it with {quote} at the end of this value")


def _line(text: str, number: int) -> str:
    lines = text.splitlines()
    return lines[number - 1] if 0 < number <= len(lines) else ""


def _mapping_values_hint(text: str, mark: yaml.Mark) -> str:
    line = _line(text, mark.line + 1)
    before = line[: mark.column]
    if re.match(r"^\s*(?:-\s+)?[\w-]+:\s+\S", before):
        return "; the value holds ': ', which YAML reads as a new key: quote the value (\"...\")"
    previous = next((_line(text, n) for n in range(mark.line, 0, -1) if _line(text, n).strip()), "")
    indent = len(line) - len(line.lstrip(" "))
    if indent > len(previous) - len(previous.lstrip(" ")):
        return "; this line is indented deeper than the key above it: align it with the keys of its mapping"
    return ""


def syntax_error(text: str, exc: yaml.MarkedYAMLError) -> tuple[Position, str]:
    """Where to report a YAML syntax error, and what to say."""
    mark = exc.problem_mark or exc.context_mark
    problem = exc.problem or "not valid YAML"
    if "'\\t'" in problem:
        return _pos(mark), "invalid YAML: a tab character; YAML indents with spaces only: replace the tab with spaces"
    if exc.context == "while scanning a quoted scalar" and exc.context_mark is not None:
        quote = text[exc.context_mark.index] if exc.context_mark.index < len(text) else '"'
        return _pos(exc.context_mark), f"invalid YAML: the {quote} opened here is never closed; close it with {quote} at the end of the value"
    cloze = unquoted_cloze(text, up_to_line=mark.line + 1 if mark else None)
    if cloze:
        return cloze
    swallowed = _swallowing_quote(text, mark) if mark else None
    if swallowed:
        return swallowed
    return _parser_words(text, exc)


def _parser_words(text: str, exc: yaml.MarkedYAMLError) -> tuple[Position, str]:
    """The parser's own message, at its place, with a hint for the two indentation mistakes."""
    mark = exc.problem_mark or exc.context_mark
    where = _pos(mark) if mark else Position(1, 1)
    problem = exc.problem or "not valid YAML"
    started = exc.context_mark if exc.context_mark and exc.context_mark is not mark else None
    if exc.context and problem.startswith("but "):  # "expected X, but found Y" reads as one sentence
        problem, context = f"{exc.context}, {problem}", ""
    elif exc.context and started:
        context = f" ({exc.context} that starts at line {started.line + 1}, column {started.column + 1})"
    else:
        context = f" ({exc.context})" if exc.context else ""
    hint = _mapping_values_hint(text, mark) if mark and problem == "mapping values are not allowed here" else ""
    return where, f"invalid YAML: {problem}{context}{hint}"
