"""`audit --fix-moves`: write a moved page's new address into the source, and nothing else.

The new address is already normalised and checked (`pipeline.citations.address`); it is still written
only by a YAML emitter, never pasted into the text, and the result is proved before it is kept:

1. a round trip through ruamel.yaml, which keeps comments, key order, quoting and layout;
2. where that reformats more than the URL lines (a folded block's indentation, spaces inside a flow
   mapping), the URL's scalar alone is replaced, over exactly the span the parser gives for it, by the
   scalar PyYAML's emitter writes for the new value: plain where its analysis allows a plain scalar in
   that (block or flow) context, else double-quoted, which holds any text in either context.

Either result is kept only if the project's own loader (the one `validate` uses) reads from it exactly
the data it read before with the one URL value changed, and a line diff (every line break counted, see
`pipeline.text.linebreaks`) shows the URL lines alone. Otherwise the file is left as it is and the move
is refused with a sentence: the author changes the address by hand. Written atomically, each file once.
"""

from __future__ import annotations

import copy
import io
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import yaml
from ruamel.yaml.error import YAMLError
from ruamel.yaml.scalarstring import ScalarString

from pipeline.citations.audit import CitationRef
from pipeline.errors import SourceError
from pipeline.load.limits import BoundedLoader
from pipeline.load.roundtrip import round_trip_editor
from pipeline.load.yamlsource import PathKey, parse_yaml
from pipeline.publish.atomic import write_atomic
from pipeline.text.linebreaks import split_lines


@dataclass(frozen=True)
class Move:
    ref: CitationRef
    new_url: str

    @property
    def path(self) -> PathKey:
        return (*self.ref.citation_path, "url")


class Unsafe(Exception):
    """The edit could not be proved to change the URL alone (a sentence says what went wrong)."""


def fix_moves(moves: list[Move]) -> tuple[list[tuple[Move, int]], list[tuple[Move, str]]]:
    """Rewrite every moved address in its source file: (each move done, with the line of its URL), and
    (each move refused, with why); a file with a refused move is not written at all."""
    by_file: dict[Path, list[Move]] = defaultdict(list)
    for move in moves:
        by_file[move.ref.place.path].append(move)
    done, refused = [], []
    for path, file_moves in by_file.items():
        try:
            text, lines = rewrite(path.read_text(encoding="utf-8"), file_moves, path)
        except (Unsafe, OSError, UnicodeDecodeError) as exc:
            refused += [(move, f"cannot rewrite the moved address safely ({exc}); change it by hand") for move in file_moves]
            continue
        write_atomic(path, text.encode("utf-8"))
        done += zip(file_moves, lines, strict=True)
    return done, refused


def rewrite(text: str, moves: list[Move], path: Path) -> tuple[str, list[int]]:
    """`text` with each move's URL replaced, and the 1-based line of each URL; `Unsafe` when neither way
    can be proved to change the URLs alone."""
    before = _data(path, text)
    expected = copy.deepcopy(before)
    for move in moves:
        _set(expected, move.path, move.new_url)
    nodes = [_node(text, move.path) for move in moves]
    lines = [node.start_mark.line + 1 for node in nodes]
    for attempt in (_spliced, _round_trip):
        try:
            after = attempt(text, moves, nodes)
        except (YAMLError, yaml.YAMLError, KeyError, IndexError, TypeError):
            continue
        if _only_urls_changed(text, after, lines) and _data(path, after, missing=None) == expected:
            return after, lines
    raise Unsafe("no edit changed the URL alone")


def _data(path: Path, text: str, missing: object = Unsafe) -> object:
    """What the project's loader reads from `text` (as `validate` would)."""
    try:
        return parse_yaml(path, text).data
    except SourceError as exc:
        if missing is Unsafe:
            raise Unsafe(f"the file does not load: {exc.message}") from None
        return missing


def _set(data: object, path: PathKey, value: str) -> None:
    for key in path[:-1]:
        data = data[key]  # type: ignore[index]
    data[path[-1]] = value  # type: ignore[index]


def _node(text: str, path: PathKey) -> yaml.Node:
    """The composed node at `path`, with the marks of where it starts and ends in `text`."""
    node = yaml.compose(text, Loader=BoundedLoader)
    for key in path:
        if isinstance(node, yaml.SequenceNode) and isinstance(key, int):
            node = node.value[key]
        elif isinstance(node, yaml.MappingNode) and any(k.value == key for k, _ in node.value):
            node = next(v for k, v in node.value if k.value == key)
        else:
            raise Unsafe("the citation is not where the loader found it")
    return node


def _round_trip(text: str, moves: list[Move], nodes: list[yaml.Node]) -> str:
    editor = round_trip_editor(text)
    data = editor.load(text)
    for move in moves:
        citation = data
        for key in move.ref.citation_path:
            citation = citation[key]
        old = citation["url"]
        citation["url"] = type(old)(move.new_url) if isinstance(old, ScalarString) else move.new_url  # same quoting
    out = io.StringIO()
    editor.dump(data, out)
    return out.getvalue()


def _spliced(text: str, moves: list[Move], nodes: list[yaml.Node]) -> str:
    """Each URL scalar's span replaced by the emitter's scalar for the new value, from the last to the first."""
    for move, node in sorted(zip(moves, nodes, strict=True), key=lambda pair: -pair[1].start_mark.index):
        start, end = node.start_mark.index, node.end_mark.index
        text = text[:start] + scalar(move.new_url, node.style, flow=_in_flow(text, start)) + text[end:]
    return text


def scalar(value: str, style: str | None, flow: bool) -> str:
    """`value` as PyYAML's emitter writes a scalar in the author's style (plain, 'single' or "double") when
    its analysis allows that style in this (block or flow) context, else double-quoted (any text, anywhere)."""
    analysis = yaml.emitter.Emitter(io.StringIO()).analyze_scalar(value)
    if style is None and not analysis.multiline and (analysis.allow_flow_plain if flow else analysis.allow_block_plain):
        return value
    keep_single = style == "'" and analysis.allow_single_quoted and not analysis.multiline
    emitted = yaml.dump(value, default_style="'" if keep_single else '"', width=1_000_000, allow_unicode=False)
    return emitted.removesuffix("\n").removesuffix("\n...")


def _in_flow(text: str, index: int) -> bool:
    """Whether the scalar starting at `index` stands inside a flow collection ({...} or [...]), by the
    parser's own events."""
    open_collections: list[bool] = []
    for event in yaml.parse(text, Loader=BoundedLoader):
        if isinstance(event, yaml.CollectionStartEvent):
            open_collections.append(bool(event.flow_style))
        elif isinstance(event, yaml.CollectionEndEvent):
            open_collections.pop()
        elif isinstance(event, yaml.ScalarEvent) and event.start_mark.index == index:
            return any(open_collections)
    raise Unsafe("the URL's scalar is not where the parser found it")


def _only_urls_changed(before: str, after: str, lines: list[int]) -> bool:
    """The same number of lines (every line break counted), differing at most on the URLs' lines."""
    old, new = split_lines(before), split_lines(after)
    if len(old) != len(new) or before.endswith("\n") != after.endswith("\n"):
        return False
    return all(a == b or n in lines for n, (a, b) in enumerate(zip(old, new, strict=True), start=1))
