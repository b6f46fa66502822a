"""Read one YAML file into plain Python data, keeping where every node stands.

PyYAML's `safe_load` forgets positions, accepts duplicate keys silently and crashes on dates that do
not exist (`2026-02-30`). Here the file is composed into nodes and built by hand, so that:

- every value and every mapping key has a `Position` (1-based line and column), looked up by its path
  of keys and list indexes, e.g. `("questions", 0, "answer")`;
- a key given twice is an error on the second one;
- dates stay strings, so the schema (pydantic) reports a bad date like any other bad value;
- hostile files end in an error, not a hang or a crash (`pipeline.load.limits`: only regular files, bounded
  size, nesting and alias expansion, plain tags, no control characters).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from pipeline.diagnostics import Position
from pipeline.errors import SourceError
from pipeline.load import yamlhints
from pipeline.load.limits import BoundedLoader, hidden_line_break, read_regular, reader_position, scalar_problem

PathKey = tuple[str | int, ...]
_TIMESTAMP_TAG = "tag:yaml.org,2002:timestamp"


@dataclass
class YamlDocument:
    """The data of one YAML file and the positions of its nodes."""

    path: Path
    data: Any
    values: dict[PathKey, Position] = field(default_factory=dict)
    keys: dict[PathKey, Position] = field(default_factory=dict)
    duplicate_keys: list[tuple[PathKey, Position]] = field(default_factory=list)
    written: dict[PathKey, str] = field(default_factory=dict)  # non-text scalars as written (`1.10`, read as 1.1)
    stray_quotes: list[tuple[PathKey, Position, str]] = field(default_factory=list)  # `text"`: a closing quote never opened
    # `{definition: A, B}`: a comma ended the value and `B` became a key with no value; each such key's path ->
    # the path of the value it was cut from, and that value's place and whole text as written (`A, B`)
    comma_keys: dict[PathKey, PathKey] = field(default_factory=dict)
    comma_values: dict[PathKey, tuple[Position, str]] = field(default_factory=dict)

    def position(self, path: PathKey) -> Position:
        """Where the node at `path` stands; for a path that does not exist, its nearest existing parent."""
        while path not in self.values and path:
            path = path[:-1]
        return self.values.get(path, Position(1, 1))

    def key_position(self, path: PathKey) -> Position:
        """Where the key naming the node at `path` stands (falls back to the value's position)."""
        return self.keys.get(path) or self.position(path)


def _mark(node: yaml.Node) -> Position:
    return Position(node.start_mark.line + 1, node.start_mark.column + 1)


class _Builder:
    """Turns a composed node tree into data, recording positions along the way."""

    def __init__(self, doc: YamlDocument, text: str = "") -> None:
        self.doc = doc
        self.text = text  # the source, to place the escape that wrote a control character
        self.scalars = yaml.SafeLoader("")  # only its scalar constructors are used
        self._plain: dict[PathKey, tuple[Position, int]] = {}  # each plain value of a {...} mapping: its place, its offset

    def build(self, node: yaml.Node, path: PathKey) -> Any:
        self.doc.values[path] = _mark(node)
        _refuse_hostile(self.doc.path, node, None, self.text)
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, path)
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, path + (i,)) for i, item in enumerate(node.value)]
        if node.tag == _TIMESTAMP_TAG:
            return node.value  # validated as a date by the schema, with a proper message
        value = _construct(self.scalars, node, self.doc.path)
        _refuse_hostile(self.doc.path, node, value, self.text)
        if isinstance(value, str) and node.style is None and value.endswith('"') and value.count('"') == 1:
            end = node.end_mark
            self.doc.stray_quotes.append((path, Position(end.line + 1, end.column), value))
        if not isinstance(value, str) and isinstance(node, yaml.ScalarNode):
            self.doc.written[path] = node.value  # as written: `1.10`, which YAML reads as 1.1
        return value

    def _mapping(self, node: yaml.MappingNode, path: PathKey) -> dict[Any, Any]:
        self.scalars.flatten_mapping(node)  # resolves YAML merge keys (<<)
        result: dict[Any, Any] = {}
        cut_from: PathKey | None = None  # in a {...} mapping: the last plain value a comma may have cut short
        for key_node, value_node in node.value:
            _refuse_hostile(self.doc.path, key_node, None, self.text)
            key = _construct(self.scalars, key_node, self.doc.path) if isinstance(key_node, yaml.ScalarNode) else f"<{key_node.id}>"
            _refuse_hostile(self.doc.path, key_node, key, self.text)
            if not isinstance(key, (str, int, bool)) or key is None:
                key = str(key)
            child = path + (key,)
            if key in result:
                self.doc.duplicate_keys.append((child, _mark(key_node)))
                continue
            self.doc.keys[child] = _mark(key_node)
            result[key] = self.build(value_node, child)
            if node.flow_style:
                cut_from = self._comma_cut(key_node, value_node, child, cut_from)
        return result

    def _comma_cut(self, key_node: yaml.Node, value_node: yaml.Node, child: PathKey, cut_from: PathKey | None) -> PathKey | None:
        """Record `{definition: A, B}`, a plain key with no `:` after a plain value, as text cut by a comma;
        return the value later keys may be cut from. Only the schema's "unknown key" turns it into an error."""
        bare = (isinstance(key_node, yaml.ScalarNode) and key_node.style is None and isinstance(value_node, yaml.ScalarNode)
                and value_node.value == "" and value_node.tag == "tag:yaml.org,2002:null"
                and not self.text[key_node.end_mark.index:].lstrip(" ").startswith(":"))
        if bare and cut_from is not None:
            place, start = self._plain[cut_from]
            self.doc.comma_keys[child] = cut_from
            self.doc.comma_values[cut_from] = (place, self.text[start:key_node.end_mark.index])
            return cut_from
        if isinstance(value_node, yaml.ScalarNode) and value_node.style is None and value_node.tag == "tag:yaml.org,2002:str":
            self._plain[child] = (_mark(value_node), value_node.start_mark.index)
            return child
        return None


def _refuse_hostile(path: Path, node: yaml.Node, value: Any, text: str) -> None:
    """An unknown tag or a control character is a SourceError at its place (see `limits.scalar_problem`)."""
    problem = scalar_problem(node, value, text)
    if problem:
        raise SourceError(path, *problem)


def _construct(loader: yaml.SafeLoader, node: yaml.Node, path: Path) -> Any:
    """A scalar's value; a number too long to convert (Python refuses over 4,300 digits) is an error at it."""
    try:
        return loader.construct_object(node, deep=True)
    except ValueError:
        raise SourceError(path, _mark(node), f"the number {node.value[:20]}... is too long; write a number in range or quote it") from None


def read_text(path: Path) -> str:
    """The file's text, or a SourceError saying in a sentence why it cannot be read."""
    raw = read_regular(path)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise SourceError(path, Position(line, col), f"not UTF-8 text (byte 0x{raw[exc.start]:02x}); save the file as UTF-8") from None


def load_yaml(path: Path) -> YamlDocument:
    """Parse `path`; a syntax error becomes a SourceError at the place the parser stopped."""
    return parse_yaml(path, read_text(path))


def parse_yaml(path: Path, text: str) -> YamlDocument:
    """Parse `text`, the content of `path` (or what is about to be written there), as `load_yaml` does."""
    doc = YamlDocument(path=path, data=None)
    if hidden := hidden_line_break(text):
        raise SourceError(path, *hidden)
    try:
        node = yaml.compose(text, Loader=BoundedLoader)
    except yaml.reader.ReaderError as exc:
        raise SourceError(path, reader_position(text, exc.position), f"control character U+{exc.character:04X} in the file; remove it (it would corrupt the outputs)") from None
    except yaml.MarkedYAMLError as exc:
        where, message = yamlhints.syntax_error(text, exc)
        raise SourceError(path, where, message) from None
    except yaml.YAMLError as exc:
        raise SourceError(path, Position(1, 1), f"invalid YAML: {exc}") from None
    if node is None:
        raise SourceError(path, Position(1, 1), "the file is empty; expected a mapping of keys")
    cloze = yamlhints.unquoted_cloze(text)  # parsed, but as a mapping: say so before the schema says "expected text"
    if cloze:
        raise SourceError(path, *cloze)
    try:
        doc.data = _Builder(doc, text).build(node, ())
    except yaml.constructor.ConstructorError as exc:
        mark = exc.problem_mark
        where = Position(mark.line + 1, mark.column + 1) if mark else Position(1, 1)
        raise SourceError(path, where, f"invalid YAML: {exc.problem}") from None
    return doc
