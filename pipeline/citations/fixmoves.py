"""`audit --fix-moves`: write a moved page's new address into the source, and nothing else.

The file is edited through ruamel.yaml's round-trip mode, which keeps comments, key order, quoting and
layout. Round-tripping is not byte-exact in every corner (a folded block's indentation, spaces inside a
flow mapping), so the result is compared line by line with the original: if anything but the URL lines
changed, the edit is made instead on the URL's own line, at the position ruamel reports for it. Either
way the author's diff is the URL lines alone. Written atomically, each file once.
"""

from __future__ import annotations

import io
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from pipeline.citations.audit import CitationRef
from pipeline.load.roundtrip import load_round_trip
from pipeline.publish.atomic import write_atomic


@dataclass(frozen=True)
class Move:
    ref: CitationRef
    new_url: str


def fix_moves(moves: list[Move]) -> list[tuple[Move, int]]:
    """Rewrite every moved address in its source file; return each move with the line of its URL."""
    by_file: dict[Path, list[Move]] = defaultdict(list)
    for move in moves:
        by_file[move.ref.place.path].append(move)
    done = []
    for path, file_moves in by_file.items():
        text, lines = rewrite(path.read_text(encoding="utf-8"), file_moves, path)
        write_atomic(path, text.encode("utf-8"))
        done += zip(file_moves, lines, strict=True)
    return done


def rewrite(text: str, moves: list[Move], path: Path) -> tuple[str, list[int]]:
    """`text` with each move's URL replaced (round-trip first, the URL's line alone if that changes more),
    and the 1-based line of each URL."""
    yaml, data = load_round_trip(text, path, "the file's moved addresses")
    located = []
    for move in moves:
        i, j = move.ref.index
        citation = data["key_points"][i]["citations"][j]
        located.append((citation.lc.value("url"), move.ref.url, move.new_url))
        citation["url"] = move.new_url
    out = io.StringIO()
    yaml.dump(data, out)
    lines = [line + 1 for (line, _), _, _ in located]
    if _only_urls_changed(text, out.getvalue(), moves):
        return out.getvalue(), lines
    return _on_the_line(text, located), lines


def _only_urls_changed(before: str, after: str, moves: list[Move]) -> bool:
    old, new = before.splitlines(), after.splitlines()
    if len(old) != len(new) or before.endswith("\n") != after.endswith("\n"):
        return False
    changed = [(a, b) for a, b in zip(old, new, strict=True) if a != b]
    urls = {(m.ref.url, m.new_url) for m in moves}
    return all(any(a.replace(o, n, 1) == b for o, n in urls) for a, b in changed)


def _on_the_line(text: str, located: list[tuple[tuple[int, int], str, str]]) -> str:
    """Each old URL replaced in place, on the line and from the column where its node starts."""
    lines = text.splitlines(keepends=True)
    for (line, col), old, new in located:
        lines[line] = lines[line][:col] + lines[line][col:].replace(old, new, 1)
    return "".join(lines)

