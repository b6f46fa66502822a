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

The command line wins over the exam's table, which wins over the top level. The file is checked through
one settings model (pipeline/settings/model.py) composed of the options model each output declares in its
own module (e.g. pipeline/render/guide/options.py), so a new output's option is a setting here with no
change to this file; this module reads the file, says each error at its place and makes the light value a
build reads (`Settings`). `build` and `variants` read it unchecked (`Unchecked`) and check it past their
no-op test.

The file is read within bounds like any file handed to the pipeline: at most MAX_BYTES, nested at most MAX_DEPTH
arrays and inline tables (tomlkit recurses, so a deeper file would end in a RecursionError).
"""

from __future__ import annotations

import hashlib
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
        line = f"{self.path}:{where.line}:{where.col}: error: {'.'.join(key)}: {message} [config]"
        if (where, line) not in self.lines:  # one bad item of a list is one line, however many items pydantic names
            self.lines.append((where, line))

    def raise_any(self) -> None:
        if self.lines:
            raise UsageError("\n".join(line for _, line in sorted(self.lines, key=lambda pair: pair[0])))


def parse(text: str, path: Path = CONFIG) -> Settings:
    """The settings in `text`, checked through the settings model (pipeline/settings/model.py); a UsageError
    listing every problem, each at its line."""
    import tomlkit  # only when there is a file to read
    from pydantic import ValidationError
    from tomlkit.exceptions import ParseError

    from pipeline.settings import model

    try:
        data = tomlkit.parse(text).unwrap()
    except ParseError as exc:
        where, message = tomlhints.syntax_error(text, exc.line, exc.col, str(exc))
        raise UsageError(f"{path}:{where.line}:{where.col}: error: {message} [config]") from None
    located = places(text)
    try:
        checked = model.ProjectSettings.model_validate(data, context={"content": path.absolute().parent})
    except ValidationError as exc:
        problems = _Problems(path, located)
        for error in exc.errors(include_url=False):
            key, message, at_value = model.explain(error)
            problems.add(key, message, at_value=at_value)
        problems.raise_any()
        raise AssertionError("a validation error with no problem") from exc  # raise_any raised: every error says one
    exams = {exam_id: _exam_settings(table) for exam_id, table in checked.exams.items()}
    out = Path(checked.out) if checked.out is not None else None
    return Settings(path, out, tuple(checked.allow_hosts), _exam_settings(checked), exams, located)


def _exam_settings(table: Any) -> ExamSettings:
    """A checked table as the value a build reads: outputs in order, each once; only the options it set."""
    outputs = tuple(dict.fromkeys(table.outputs)) if table.outputs is not None else None
    options = {name: getattr(table, name) for name in registry.options() if getattr(table, name) is not None}
    return ExamSettings(outputs, table.strict, options)


@dataclass(frozen=True)
class Unchecked:
    """pipeline.toml read but not yet checked, for a command that may stop before it needs the settings (a no-op
    `build` or `variants`): its fingerprint hashes the file's bytes (`digest`), and the last run's record is looked
    for in the `out` the file names. A record is kept only by a run that checked these very bytes with this very
    code (both are in the fingerprint), so a hit needs no check; a miss calls `checked()`, which says every
    problem as `load` does."""

    path: Path
    text: str = field(repr=False)
    digest: str

    @property
    def out(self) -> Path | None:
        """The folder the file names, unchecked: only where to look for a record (a broken file has none)."""
        import tomllib  # the standard library's: no pydantic, no tomlkit on the no-op path

        try:
            value = tomllib.loads(self.text).get("out")
        except tomllib.TOMLDecodeError:
            return None
        return Path(value) if isinstance(value, str) and value.strip() and "\0" not in value else None

    def checked(self) -> Settings:
        return parse(self.text, self.path)


def checked(settings: Settings | Unchecked) -> Settings:
    """The settings, checked now if they were read with `load(check=False)`."""
    return settings.checked() if isinstance(settings, Unchecked) else settings


def load(path: Path = CONFIG, *, check: bool = True) -> Settings | Unchecked:
    """The settings of `path`, checked; with `check=False` a file is only read (`Unchecked`): the caller checks it
    when it goes past its no-op test. A missing file is the defaults either way."""
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
    if not check:
        return Unchecked(path, text, hashlib.sha256(text.encode()).hexdigest())
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
    return list(checked(load(path)).allow_hosts)


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

