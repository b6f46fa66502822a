"""`examples --update`: write what a drifted example printed into its source, changing only its `output`.

Like `audit --fix-moves` (pipeline/citations/fixmoves.py), the file is edited through ruamel.yaml's
round-trip mode, which keeps comments, key order, quoting and layout, and the result is compared line
by line with the original: when anything outside the example's `output` lines changed (round-tripping
is not byte-exact in every corner), the new block is spliced in place of those lines instead. Either
way the author's diff is the output lines alone. The new output is a literal block (`|-`), as the
sample writes them; files are written atomically, each once.
"""

from __future__ import annotations

import difflib
import io
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from ruamel.yaml.scalarstring import LiteralScalarString

from pipeline.load.roundtrip import load_round_trip
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
    yaml, data = load_round_trip(text, path, "the example's output")
    spans = []
    for update in updates:
        example = data["examples"][update.index]
        key_line, key_col = example.lc.key("output")
        spans.append((_span(text, key_line, key_col), key_col, update.output))
        example["output"] = LiteralScalarString(update.output)
    out = io.StringIO()
    yaml.dump(data, out)
    lines = [span[0] + 1 for span, _, _ in spans]
    if _only_within(text, out.getvalue(), [span for span, _, _ in spans]):
        return out.getvalue(), lines
    return _spliced(text, spans), lines


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
    """Did the round trip change only lines inside the outputs' spans (and nothing at the file's end)?"""
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
