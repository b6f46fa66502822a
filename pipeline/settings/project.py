"""The project's settings file, `pipeline.toml` in the folder the pipeline runs from (the content folder).

Settings that belong to the project rather than to one run. Every command reads the file first and
checks it like a source: each unknown key and each bad value is an error at its line and column, with
the closest allowed key or value, all of them in one run (exit 2, a usage problem). A missing file means
the defaults.

    outputs = ["guide", "deck", "site"]   # what `build` writes when --only is not given (default: every output)
    out = "build"                         # the output folder, inside the content folder (default: build)
    strict = false                        # warnings are errors, as --strict
    paper = "letter"                      # an option of the guide (each output declares its own)
    allow_hosts = ["127.0.0.1:8000"]      # read, but not honoured: `audit` takes such hosts only from --allow-host

    [exams.nca-genm]                      # per exam: outputs, strict and the outputs' options
    outputs = ["guide"]

The command line wins over the exam's table, which wins over the top level. Output names and their
options come from the output registry (pipeline/render/__init__.py), so a new output's option is a
setting here with no change to this file.

The file is read within bounds like any file handed to the pipeline: at most MAX_BYTES, nested at most MAX_DEPTH
arrays and inline tables (tomlkit recurses, so a deeper file would end in a RecursionError).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipeline import render as registry
from pipeline.diagnostics import Position
from pipeline.errors import UsageError
from pipeline.settings import tomlhints
from pipeline.text.messages import did_you_mean

CONFIG = Path("pipeline.toml")
EXAMS = "exams"
MAX_BYTES = 1_000_000
MAX_DEPTH = 16
# comments and strings (basic, literal, multi-line) skipped whole, so only real brackets are counted
_STRUCTURE = tomlhints.STRUCTURE


@dataclass(frozen=True)
class ExamSettings:
    """What one exam's build uses; None where nothing set it (the command line or the default decides)."""

    outputs: tuple[str, ...] | None = None
    strict: bool | None = None
    options: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Settings:
    path: Path = CONFIG
    out: Path | None = None
    allow_hosts: tuple[str, ...] = ()
    default: ExamSettings = field(default_factory=ExamSettings)
    exams: Mapping[str, ExamSettings] = field(default_factory=dict)
    places: Mapping[tuple[str, ...], tuple[Position, Position]] = field(default_factory=dict)

    def check_exams(self, known: list[str]) -> None:
        """Each `[exams.ID]` must name an exam of the sources: a usage error at its line otherwise."""
        problems = _Problems(self.path, self.places)
        for exam_id in self.exams:
            if exam_id not in known:
                problems.add((EXAMS, exam_id), f"no exam '{exam_id}' in the sources{did_you_mean(exam_id, known)} (exams: {', '.join(known)})")
        problems.raise_any()

    def for_exam(self, exam_id: str) -> ExamSettings:
        """The top level with the exam's own table laid over it."""
        own = self.exams.get(exam_id, ExamSettings())
        return ExamSettings(
            own.outputs if own.outputs is not None else self.default.outputs,
            own.strict if own.strict is not None else self.default.strict,
            {**self.default.options, **own.options},
        )


class _Problems:
    """Every problem of the file, each at its place, raised together."""

    def __init__(self, path: Path, places: Mapping[tuple[str, ...], tuple[Position, Position]]) -> None:
        self.path, self.places, self.lines = path, places, []

    def add(self, key: tuple[str, ...], message: str, *, at_value: bool = False) -> None:
        key_at, value_at = self.places.get(key, (Position(1, 1), Position(1, 1)))
        where = value_at if at_value else key_at
        self.lines.append((where, f"{self.path}:{where.line}:{where.col}: error: {'.'.join(key)}: {message} [config]"))

    def raise_any(self) -> None:
        if self.lines:
            raise UsageError("\n".join(line for _, line in sorted(self.lines, key=lambda pair: pair[0])))


def _outputs(value: Any, key: tuple[str, ...], problems: _Problems) -> tuple[str, ...] | None:
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        problems.add(key, f"expected a list of output names, e.g. [\"guide\", \"deck\"] (outputs: {registry.listing()})", at_value=True)
        return None
    names = []
    for text in value:
        name = registry.resolve_output(text)
        if name is None:
            problems.add(key, f"no output is called '{text}'{did_you_mean(text, _output_words())} (outputs: {', '.join(registry.output_names())})", at_value=True)
        elif name not in names:
            names.append(name)
    return tuple(names)


def _output_words() -> list[str]:
    return [*registry.output_names(), *(a for e in registry.RENDERERS.values() for a in registry.output(e).aliases)]


def _bool(value: Any, key: tuple[str, ...], problems: _Problems) -> bool | None:
    if isinstance(value, bool):
        return value
    problems.add(key, f"expected true or false, got {value!r}", at_value=True)
    return None


def _option(name: str, value: Any, key: tuple[str, ...], problems: _Problems) -> str | None:
    owner, option = registry.options()[name]
    if isinstance(value, str) and value.lower() in option.choices:
        return value.lower()
    hint = did_you_mean(str(value), option.choices)
    problems.add(key, f"{option.help} ({owner}): expected one of {', '.join(option.choices)}, got {value!r}{hint}", at_value=True)
    return None


def _exam_settings(table: Mapping[str, Any], prefix: tuple[str, ...], problems: _Problems, allowed: list[str]) -> ExamSettings:
    outputs, strict, options = None, None, {}
    for name, value in table.items():
        key = (*prefix, name)
        if name == "outputs":
            outputs = _outputs(value, key, problems)
        elif name == "strict":
            strict = _bool(value, key, problems)
        elif name in registry.options():
            if (chosen := _option(name, value, key, problems)) is not None:
                options[name] = chosen
        elif name in _top_keys() and name not in allowed:
            problems.add(key, f"a setting of the top level only, not of an exam (settings here: {', '.join(allowed)})")
        elif name not in allowed:
            problems.add(key, f"unknown setting{did_you_mean(name, allowed)} (settings here: {', '.join(allowed)})")
    return ExamSettings(outputs, strict, options)


def _exam_keys() -> list[str]:
    return ["outputs", "strict", *registry.options()]


def _top_keys() -> list[str]:
    return [*_exam_keys(), "out", "allow_hosts", EXAMS]


def parse(text: str, path: Path = CONFIG) -> Settings:
    """The settings in `text`; a UsageError listing every problem, each at its line."""
    import tomlkit  # only when there is a file to read
    from tomlkit.exceptions import ParseError

    try:
        data = tomlkit.parse(text).unwrap()
    except ParseError as exc:
        where, message = tomlhints.syntax_error(text, exc.line, exc.col, str(exc))
        raise UsageError(f"{path}:{where.line}:{where.col}: error: {message} [config]") from None
    located = places(text)
    problems = _Problems(path, located)
    default = _exam_settings({k: v for k, v in data.items() if k not in ("out", "allow_hosts", EXAMS)}, (), problems, _top_keys())
    out = _path(data.get("out"), problems, path.absolute().parent)
    hosts = data.get("allow_hosts", [])
    if not isinstance(hosts, list) or not all(isinstance(h, str) for h in hosts):
        problems.add(("allow_hosts",), 'expected a list of HOST or HOST:PORT strings, e.g. ["127.0.0.1:8000"]', at_value=True)
        hosts = []
    exams = {}
    tables = data.get(EXAMS, {})
    if not isinstance(tables, dict):
        problems.add((EXAMS,), "expected tables, one per exam: [exams.EXAM-ID]", at_value=True)
        tables = {}
    for exam_id, table in tables.items():
        if not isinstance(table, dict):
            problems.add((EXAMS, exam_id), f"expected a table of settings for exam '{exam_id}' ({', '.join(_exam_keys())})", at_value=True)
            continue
        exams[exam_id] = _exam_settings(table, (EXAMS, exam_id), problems, _exam_keys())
    problems.raise_any()
    return Settings(path, out, tuple(hosts), default, exams, located)


def _path(value: Any, problems: _Problems, content: Path) -> Path | None:
    """`out`: a relative folder inside the content folder (where pipeline.toml is). A file in the content
    repository must not point the build at /etc or ../..; an absolute folder is the command line's (--out)."""
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip() or "\0" in value:
        problems.add(("out",), f"expected a folder name, e.g. \"build\", got {value!r}", at_value=True)
        return None
    inside = Path(os.path.realpath(content / value)).is_relative_to(Path(os.path.realpath(content)))
    if Path(value).is_absolute() or not inside or os.path.normpath(value) == ".":
        problems.add(("out",), f"expected a folder inside the content folder, e.g. \"build\", got {value!r} "
                               "(an absolute folder or one outside is only taken from the command line: --out DIR)", at_value=True)
        return None
    return Path(value)


def load(path: Path = CONFIG) -> Settings:
    try:
        with open(path, "rb") as handle:
            text = handle.read(MAX_BYTES + 1).decode("utf-8")
    except FileNotFoundError:
        return Settings(path)
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}:1:1: error: cannot read the settings file ({exc}) [config]") from None
    if len(text) > MAX_BYTES:
        raise UsageError(f"{path}:1:1: error: the settings file is over {MAX_BYTES:,} bytes; it holds a few lines [config]")
    _check_depth(path, text)
    return parse(text, path)


def _check_depth(path: Path, text: str) -> None:
    """A usage error at the bracket that opens level MAX_DEPTH + 1 (tomlkit, like tomllib, recurses)."""
    depth = 0
    for match in _STRUCTURE.finditer(text):
        token = match[0]
        if token in ("[", "{"):
            depth += 1
            if depth > MAX_DEPTH:
                line = text.count("\n", 0, match.start()) + 1
                col = match.start() - (text.rfind("\n", 0, match.start()) + 1) + 1
                raise UsageError(f"{path}:{line}:{col}: error: invalid TOML: nested more than {MAX_DEPTH} levels deep [config]")
        elif token in ("]", "}"):
            depth = max(0, depth - 1)


def allow_hosts(path: Path = CONFIG) -> list[str]:
    return list(load(path).allow_hosts)


# -- where each key stands ---------------------------------------------------------------------------

_HEADER = re.compile(r"^[ \t]*\[(?!\[)(?P<name>[^\]\n]*)\]", re.M)
_KEY = re.compile(r"^[ \t]*(?P<key>(?:\"[^\"\n]*\"|'[^'\n]*'|[A-Za-z0-9_.\- \t])+?)[ \t]*=[ \t]*", re.M)


def places(text: str) -> dict[tuple[str, ...], tuple[Position, Position]]:
    """Each key's path -> (where the key stands, where its value starts).

    tomllib gives no positions and tomlkit keeps them only as text, so lines are scanned here, in order,
    with each key and table name read by tomlkit's own key parser (quoted keys, dotted keys). A key's value
    is skipped as tomlkit measured it, so a key-like line inside a multi-line string is never taken for one."""
    import tomlkit

    doc = tomlkit.parse(text)
    found: dict[tuple[str, ...], tuple[Position, Position]] = {}
    table: tuple[str, ...] = ()
    index = 0
    for match in _tokens(text):
        if match.start() < index:
            continue
        if match.re is _HEADER:
            table = _split(match["name"])
            at = _position(text, match.start("name") - 1)
            found.setdefault(table, (at, at))
            index = match.end()
            continue
        key = (*table, *_split(match["key"]))
        found[key] = (_position(text, match.start("key")), _position(text, match.end()))
        index = match.end() + len(_value_text(doc, key))
    return found


def _tokens(text: str) -> list[re.Match[str]]:
    return sorted([*_HEADER.finditer(text), *_KEY.finditer(text)], key=lambda m: m.start())


def _split(name: str) -> tuple[str, ...]:
    """`exams."nca-genm".x` -> ("exams", "nca-genm", "x"), quotes honoured."""
    parts = re.findall(r"\"([^\"]*)\"|'([^']*)'|([^.\s\"']+)", name)
    return tuple(next(p for p in groups if p) if any(groups) else "" for groups in parts)


def _value_text(doc: Any, key: tuple[str, ...]) -> str:
    item: Any = doc
    try:
        for part in key:
            item = item[part]
        return item.as_string()
    except (KeyError, TypeError, AttributeError):
        return ""


def _position(text: str, index: int) -> Position:
    line = text.count("\n", 0, index) + 1
    return Position(line, index - (text.rfind("\n", 0, index) + 1) + 1)

