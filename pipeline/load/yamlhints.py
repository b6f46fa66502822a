"""YAML syntax errors, said to an author: where the mistake is (not where the parser gave up) and the fix.

PyYAML stops where it can no longer make sense of the text, which is often a line or more after the
mistake, and says so in its own terms ("expected <block end>, but found '<scalar>'"). The mistakes
authors make are few and recognisable; each gets its place and a hint here:

- a tab in the indentation (YAML indents with spaces only);
- a quote that is never closed, or closed only lines later, having swallowed the keys between;
- an unquoted value starting with `{{c1::`, which YAML reads as a mapping;
- a `: ` inside an unquoted value, or a line indented deeper than the key above it;
- a `{` or `[` never closed (reported where it opens, not where the parser gave up lines later);
- a `: ` inside a value of a `{...}` mapping;
- a quote inside a quoted value that ends it early (`'It's'`, `"say "hi""`);
- a `|` or `>` block whose first line is indented more than the rest (it needs an indentation
  indicator, `|2`, to keep its leading spaces);
- a list item or a key indented less than its siblings above it, or a key indented more than the key
  above it when that key has its value on its line.

Anything else keeps the parser's words, at the parser's place.
"""

from __future__ import annotations

import re

import yaml

from pipeline.diagnostics import Position

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
    for hint in (_flow_problem, _quote_ends_early, _block_needs_indicator, _dedented, _deeper_after_plain):
        found = hint(text, exc) if mark else None
        if found:
            return found
    return _parser_words(text, exc)


_OPENERS = {yaml.FlowMappingStartToken: "{", yaml.FlowSequenceStartToken: "["}
_CLOSERS = (yaml.FlowMappingEndToken, yaml.FlowSequenceEndToken)


def _open_flows(text: str, stop: yaml.Mark) -> list[yaml.Token]:
    """The `{` and `[` still open where the parser stopped."""
    stack: list[yaml.Token] = []
    try:
        for token in yaml.scan(text, Loader=yaml.SafeLoader):
            if token.start_mark.index >= stop.index:
                break
            if type(token) in _OPENERS:
                stack.append(token)
            elif isinstance(token, _CLOSERS) and stack:
                stack.pop()
    except yaml.YAMLError:
        pass  # the scan stops at the same mistake
    return stack


def _flow_problem(text: str, exc: yaml.MarkedYAMLError) -> tuple[Position, str] | None:
    """A `{`/`[` never closed (at the bracket), or a `: ` inside a `{...}` value (at the value)."""
    mark = exc.problem_mark
    stack = _open_flows(text, mark)
    if not stack:
        return None
    opener = stack[-1]
    bracket = _OPENERS[type(opener)]
    closing = "}" if bracket == "{" else "]"
    if mark.line > opener.start_mark.line or "stream end" in (exc.problem or ""):
        return _pos(opener.start_mark), (f"invalid YAML: the {bracket} opened here is never closed; close it with {closing} "
                                         f"at the end of line {opener.start_mark.line + 1}")
    if bracket == "{" and "but got ':'" in (exc.problem or ""):
        line = _line(text, mark.line + 1)
        start = max(line.rfind(",", 0, mark.column), line.rfind("{", 0, mark.column)) + 1
        key, _, value = line[start:].partition(": ")
        value = value.split(",")[0].split("}")[0].strip()
        column = line.index(value, start) + 1 if value in line[start:] else start + 1
        fixed = value.replace('"', '\\"')
        return Position(mark.line + 1, column), (f"invalid YAML: the value {value!r} holds ': ', which ends a key inside {{...}}; "
                                                 f'quote it: {key.strip()}: "{fixed}"')
    return None


def _quote_ends_early(text: str, exc: yaml.MarkedYAMLError) -> tuple[Position, str] | None:
    """`'It's fine'`: the quote inside closes the value, and the rest of the line is left over."""
    mark = exc.problem_mark
    if "but found '<scalar>'" not in (exc.problem or "") and "could not find expected ':'" not in (exc.problem or ""):
        return None
    last = None
    try:
        for token in yaml.scan(text, Loader=yaml.SafeLoader):
            if token.start_mark.index >= mark.index:
                break
            if isinstance(token, yaml.ScalarToken) and token.style in ('"', "'") and token.end_mark.line == mark.line:
                last = token
    except yaml.YAMLError:
        pass
    if last is None or last.end_mark.index > mark.index or text[last.end_mark.index:mark.index].strip():
        return None
    quote = last.style
    inner = text[last.start_mark.index + 1:last.end_mark.index - 1]
    rest = _line(text, mark.line + 1)[mark.column:].rstrip()
    whole = inner + quote + rest.rstrip(quote)
    if quote == "'":
        fix = f"write it twice inside single quotes ('{whole.replace(chr(39), chr(39) * 2)}'), or use double quotes: \"{whole}\""
    else:
        fix = f"escape it as \\\" (\"{whole.replace(chr(34), chr(92) + chr(34))}\"), or use single quotes: '{whole}'"
    return Position(last.end_mark.line + 1, last.end_mark.column), (  # the quote that closed it: one column before its end
        f"invalid YAML: this {quote} ends the quoted value early (the text goes on after it); {fix}")


_BLOCK = re.compile(r"^(\s*(?:-\s+)?)([\w-]+):\s*([|>])([+-]?)\s*(?:#.*)?$")


def _block_needs_indicator(text: str, exc: yaml.MarkedYAMLError) -> tuple[Position, str] | None:
    """A literal or folded block whose first line is indented more than a later one: YAML takes the block's
    indentation from its first line, so the later line ends it. An indicator (`|4`) says the real indentation."""
    mark = exc.problem_mark
    for number in range(mark.line, 0, -1):  # the lines above the one the parser stopped at
        found = _BLOCK.match(_line(text, number))
        if not found:
            continue
        key_indent = len(found.group(1))
        content = [_line(text, n) for n in range(number + 1, mark.line + 2)]
        lines = [line for line in content if line.strip()]
        if len(lines) < 2:
            return None
        indents = [len(line) - len(line.lstrip(" ")) for line in lines]
        if indents[0] <= min(indents) or min(indents) <= key_indent:
            return None
        indicator = min(indents) - key_indent
        head = f"{found.group(2)}: {found.group(3)}{indicator}{found.group(4)}"
        return Position(number, len(found.group(1)) + 1), (
            f"invalid YAML: this block's first line is indented more than line {number + 1 + indents.index(min(indents))}, so YAML "
            f"ends the block there; keep the leading spaces with an indentation indicator: {head} (its lines are indented "
            f"{indicator} spaces more than `{found.group(2)}:`)")
    return None


_KEY_LINE = re.compile(r"^(\s*)(?:-\s+)?[\w-]+:(?:\s|$)")
_ITEM_LINE = re.compile(r"^(\s*)-(?:\s|$)")


def _content_above(text: str, number: int) -> tuple[int, str] | None:
    """The nearest line above line `number` that holds more than blanks or a comment."""
    for above in range(number - 1, 0, -1):
        line = _line(text, above)
        if line.strip() and not line.lstrip().startswith("#"):
            return above, line
    return None


def _key_indent(line: str) -> int:
    """Where the key of a `key:` or `- key:` line starts."""
    indent = len(line) - len(line.lstrip(" "))
    return indent + 2 if line.lstrip().startswith("- ") else indent


def _dedented(text: str, exc: yaml.MarkedYAMLError) -> tuple[Position, str] | None:
    """A list item or a key indented less than its siblings above it (but more than their parent), or a key
    indented more than the key above it, whose value is already on its line."""
    problem, mark = exc.problem or "", exc.problem_mark
    if "'<block sequence start>'" in problem:
        what, sibling = "list item", _ITEM_LINE
    elif "'<block mapping start>'" in problem:
        what, sibling = "key", _KEY_LINE
    else:
        return None
    line = _line(text, mark.line + 1)
    indent = len(line) - len(line.lstrip(" "))
    if what == "key" and (deeper := _deeper_key(text, mark.line + 1, indent)):
        return deeper
    for number in range(mark.line, 0, -1):
        above = _line(text, number)
        if not above.strip():
            continue
        found = sibling.match(above)
        above_indent = _key_indent(above) if what == "key" and found else len(above) - len(above.lstrip(" "))
        if found and above_indent > indent:
            return Position(mark.line + 1, indent + 1), (f"invalid YAML: this {what} is indented {indent} spaces, less than the "
                                                         f"{what}s above it ({above_indent}, line {number}); line it up with them")
    return None


def _deeper_after_plain(text: str, exc: yaml.MarkedYAMLError) -> tuple[Position, str] | None:
    """`type: single` then a deeper `stem: ...`: YAML reads the deeper line as more of the value `single` and stops
    at its `:`; the mistake is the key's indentation, at the key."""
    mark = exc.problem_mark
    line = _line(text, mark.line + 1)
    if exc.problem != "mapping values are not allowed here" or not re.fullmatch(r"\s*[\w-]+", line[: mark.column]):
        return None
    return _deeper_key(text, mark.line + 1, len(line) - len(line.lstrip(" ")))


def _deeper_key(text: str, number: int, indent: int) -> tuple[Position, str] | None:
    """A key indented more than the key on the line above, which has its value on its own line (`type: single`):
    YAML cannot take the deeper key as part of anything, so it gives up here."""
    above = _content_above(text, number)
    if above is None or not _KEY_LINE.match(above[1]):
        return None
    above_number, above_line = above
    above_indent = _key_indent(above_line)
    if indent <= above_indent:
        return None
    return Position(number, indent + 1), (f"invalid YAML: this key is indented {indent} spaces, more than the key above it "
                                          f"({above_indent}, line {above_number}), which already has its value; line it up with "
                                          f"that key ({above_indent} spaces)")


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
