"""`examples --update`: write what a drifted example printed into its source, changing only its `output`.

Like `audit --fix-moves` (pipeline/citations/fixmoves.py), the new text is written by a YAML emitter and
proved before it is kept:

1. a round trip through ruamel.yaml, which keeps comments, key order, quoting and layout;
2. where that reformats more than the example's `output` lines, those lines alone are replaced by a
   literal block (`|-`) at the key's indentation.

Either result is kept only if a line diff shows the outputs' lines alone changed and the project's own
loader (the one `validate` uses) reads from it exactly the data it read before with each output changed.
Otherwise nothing is written and the author is told to change it by hand. Files are written atomically,
each once.
"""

from __future__ import annotations

import copy
import difflib
import io
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from ruamel.yaml.error import YAMLError
from ruamel.yaml.scalarstring import LiteralScalarString

from pipeline.errors import PipelineError, SourceError
from pipeline.load.roundtrip import round_trip_editor
from pipeline.load.yamlsource import parse_yaml
from pipeline.publish.atomic import write_atomic


@dataclass(frozen=True)
class OutputUpdate:
    path: Path
    index: int  # the example's index in the file's `examples`
    output: str  # what it printed, normalised


def update_outputs(updates: list[OutputUpdate]) -> list[tuple[OutputUpdate, int]]:
    """Rewrite each example's output in its file; each update with the line of its `output` key."""
    by_file: dict[Path, list[OutputUpdate]] = defaultdict(list)
    for update in updates:
        by_file[update.path].append(update)
    done = []
    for path, changes in by_file.items():
        text, lines = rewrite(path.read_text(encoding="utf-8"), changes, path)
        write_atomic(path, text.encode("utf-8"))
        done += zip(changes, lines, strict=True)
    return done


def rewrite(text: str, updates: list[OutputUpdate], path: Path) -> tuple[str, list[int]]:
    """`text` with each example's output replaced, and the 1-based line of each `output` key."""
    expected = copy.deepcopy(_data(path, text))
    for update in updates:
        expected["examples"][update.index]["output"] = update.output
    try:
        editor = round_trip_editor(text)
        data = editor.load(text)
    except YAMLError as exc:
        raise PipelineError(f"{path}:1:1: error: cannot rewrite the example's output ({exc}); change it by hand") from None
    spans = []
    for update in updates:
        example = data["examples"][update.index]
        key_line, key_col = example.lc.key("output")
        spans.append((_span(text, key_line, key_col), key_col, update.output))
        example["output"] = LiteralScalarString(update.output)
    out = io.StringIO()
    editor.dump(data, out)
    for after in (out.getvalue(), _spliced(text, spans)):
        if _only_within(text, after, [span for span, _, _ in spans]) and _data(path, after) == expected:
            return after, [span[0] + 1 for span, _, _ in spans]
    raise PipelineError(f"{path}:{spans[0][0][0] + 1}:1: error: cannot rewrite the example's output without changing more of the file; "
                        "change it by hand (the diff above is what it printed)")


def _data(path: Path, text: str) -> dict:
    """What the project's loader reads from `text` (as `validate` would)."""
    try:
        return parse_yaml(path, text).data
    except SourceError as exc:
        raise PipelineError(f"{path}:1:1: error: cannot rewrite the example's output: the file does not load ({exc.message})") from None


def _span(text: str, key_line: int, key_col: int) -> tuple[int, int]:
    """The lines [start, end) of `output:` and its value: the key's line and every line indented past it
    (blank lines at the end left out)."""
    lines = text.splitlines()
    end = key_line + 1
    while end < len(lines) and (not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip(" ")) > key_col):
        end += 1
    while end > key_line + 1 and not lines[end - 1].strip():
        end -= 1
    return key_line, end


def _only_within(before: str, after: str, spans: list[tuple[int, int]]) -> bool:
    """Did the edit change only lines inside the outputs' spans (and nothing at the file's end)?"""
    if before.endswith("\n") != after.endswith("\n"):
        return False
    matcher = difflib.SequenceMatcher(None, before.splitlines(), after.splitlines(), autojunk=False)
    changed = [(i1, i2) for tag, i1, i2, _, _ in matcher.get_opcodes() if tag != "equal"]
    return all(any(start <= i1 and i2 <= end for start, end in spans) for i1, i2 in changed)


def _spliced(text: str, spans: list[tuple[tuple[int, int], int, str]]) -> str:
    """Each output's lines replaced by a literal block written at the key's indentation."""
    lines = text.splitlines(keepends=True)
    for (start, end), col, output in sorted(spans, reverse=True):
        lines[start:end] = _block(lines[start], col, output)
    return "".join(lines)


def _block(key_line: str, col: int, output: str) -> list[str]:
    head = key_line[: key_line.index("output", col) + len("output")]
    content = output.split("\n")
    indicator = "2" if content and content[0].startswith(" ") else ""  # content indented 2 past the key
    body = [(" " * (col + 2) + line).rstrip() + "\n" if line else "\n" for line in content]
    return [f"{head}: |{indicator}-\n", *body]
