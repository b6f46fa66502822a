"""The one registry of interaction shapes: every dispatch on a shape, in Python, asks this module.

A shape is one module or one folder (`pipeline/shapes/choices/`, `pipeline/shapes/cloze/`) that defines
`SHAPE = Shape(...)`: its part's dataclass, its grading rule as data and the interpreter of that rule, its
answer text (the dataclass's `answer_md`), the right answers a term index reads, and, for each output in
`OUTPUTS`, the writer that output calls or a `Reason` it has none. A writer is named by reference
("module:function"), so this low layer imports no renderer: the output imports the writer when it writes.
An unknown shape is `UnknownShape`, never a fallback; tests/test_shape_registry.py lists shape x output.

The site's side (its input and answer templates and, for a shape of its own, a script that registers the
shape's reader and grader with templates/site/grade.js) is named by `site_files`; the site copies it.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

# Every output a shape must answer for: a writer, or a stated reason it has none.
#   bank: the part's entry in bank.json; guide: the answer key's line (the question's look is the template
#   guide/shapes/<shape>.html.j2 or the shape's own); anki_front/anki_back: the card's fields; moodle, qti21,
#   canvas, gift: the LMS exports' item writers; stats_key/stats_read: what `stats` keeps of a part and how it
#   reads a learner's response (bank ids, or an LMS report's summary text).
OUTPUTS = ("bank", "guide", "anki_front", "anki_back", "moodle", "qti21", "canvas", "gift", "stats_key", "stats_read")


class UnknownShape(ValueError):
    """A part whose shape no module declares: the build stops with it (never a silent fallback)."""


@dataclass(frozen=True)
class Reason:
    """Why an output has no writer for a shape: said in the build's warning when a question is left out."""

    text: str


@dataclass(frozen=True)
class Shape:
    name: str
    part: type  # its dataclass (frozen), with `shape` (= name) and `answer_md()`
    rule: Callable[[object], dict]  # what grading one part needs, as JSON-able data (the site reads exactly this)
    grade: Callable[[dict, object], object]  # score a response against rule data: a grading.Verdict
    right_answers: Callable[[object], list[str]]  # Markdown of the right answers (the site's term index)
    writers: Mapping[str, str | Reason]  # output -> "module:function", or why it has none
    self_graded: Callable[[object], bool] = lambda part: False  # the learner compares with a model answer
    # a folder shape's own files beside its Python: site.html.j2 (the input), site.answer.html.j2 (the answer
    # folded under it), site.js (registers its reader, grader and words with grade.js), site.css, guide.html.j2
    folder: Path | None = None
    bank_model: type | None = None  # a folder shape's own bank.json model (schema/bank.py adds it to the union)
    docs: str = ""  # one line for the contributors' docs
    rank: int = 100  # where the shape is listed (docs, schema, tables): by rank, then name
    extra: Mapping[str, object] = field(default_factory=dict)  # the shape's capabilities, by name in HOOKS


# The capabilities a shape may declare in `extra` (a shape without one has none of it). The analyses that used
# to test a part's class ask `hook` instead, so a shape module is the one place that says what its parts allow:
#   option_stats: True - a response is a set of the part's option ids (stats: per-option counts, distractors)
#   one_key: part -> OneKey | None - the options of a part with exactly one right option, and its place
#            (variants' stress: key position and extremes; coverage: where the answers sit)
#   tolerance: part -> (value, low, high) - a number graded within a window (variants' stress: overlaps)
#   anki_cards: "module:function" (question, part) -> [(key, question)] - the part split over several cards
HOOKS = ("option_stats", "one_key", "tolerance", "anki_cards")


@dataclass(frozen=True)
class OneKey:
    """A part with one right option: the options' texts and letters in display order, the right one's place,
    and whether that place was drawn (False for True/False and numbers in order: their place says nothing)."""

    texts: tuple[str, ...]
    letters: tuple[str, ...]
    place: int
    drawn: bool


_NOT_SHAPES = {"grading", "order", "parts", "registry"}


@cache
def shapes() -> dict[str, Shape]:
    """Name -> shape, from every module or folder in pipeline/shapes/ that defines SHAPE (found, not listed)."""
    import pipeline.shapes as package

    found: dict[str, Shape] = {}
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if info.name in _NOT_SHAPES or info.name.startswith("_"):
            continue
        spec = getattr(importlib.import_module(f"{package.__name__}.{info.name}"), "SHAPE", None)
        if spec is None:
            continue
        if spec.name in found:
            raise RuntimeError(f"shape {spec.name!r} is declared twice")
        if spec.part.shape != spec.name:
            raise RuntimeError(f"shape {spec.name!r}: its part says shape {spec.part.shape!r}")
        found[spec.name] = spec
    return dict(sorted(found.items(), key=lambda item: (item[1].rank, item[0])))


def names() -> tuple[str, ...]:
    return tuple(shapes())


def named(name: str) -> Shape:
    try:
        return shapes()[name]
    except KeyError:
        raise UnknownShape(f"unknown shape {name!r}: no module in pipeline/shapes/ declares it (known: {', '.join(shapes())})") from None


def of(part: object) -> Shape:
    """The shape of a part, by its class (a part of an undeclared class is UnknownShape)."""
    spec = shapes().get(getattr(part, "shape", None))
    if spec is None or not isinstance(part, spec.part):
        raise UnknownShape(f"unknown shape: a {type(part).__name__} part is of no shape in pipeline/shapes/")
    return spec


@cache
def _resolve(reference: str) -> Callable:
    module, _, name = reference.partition(":")
    return getattr(importlib.import_module(module), name)


def writer(part_or_name: object, output: str) -> Callable:
    """The function `output` writes this shape with; UnknownShape for an unknown shape, LookupError when the
    shape says the output has none (callers ask `writers(output)` first, through render/support.writable)."""
    spec = named(part_or_name) if isinstance(part_or_name, str) else of(part_or_name)
    entry = spec.writers.get(output)
    if not isinstance(entry, str):
        raise LookupError(f"{output} has no writer for shape {spec.name!r}: {entry.text if entry else 'none declared'}")
    return _resolve(entry)


def writers(output: str) -> dict[str, str]:
    """Shape name -> writer reference, for the shapes `output` can write."""
    return {name: s.writers[output] for name, s in shapes().items() if isinstance(s.writers.get(output), str)}


def reasons(output: str) -> dict[str, str]:
    """Shape name -> why `output` cannot write it."""
    return {name: s.writers[output].text for name, s in shapes().items() if isinstance(s.writers.get(output), Reason)}


def hook(part_or_name: object, name: str):
    """The capability `name` (one of HOOKS) of a part's shape, or None when the shape does not declare it;
    a "module:function" reference is resolved (so a low shape module may name a renderer's function)."""
    if name not in HOOKS:
        raise KeyError(f"no shape hook {name!r} (known: {', '.join(HOOKS)})")
    spec = named(part_or_name) if isinstance(part_or_name, str) else of(part_or_name)
    found = spec.extra.get(name)
    return _resolve(found) if isinstance(found, str) else found


def missing(spec: Shape) -> list[str]:
    """The outputs a shape neither writes nor gives a reason for (the registry test requires none)."""
    return [o for o in OUTPUTS if not (isinstance(spec.writers.get(o), str) or
                                       (isinstance(spec.writers.get(o), Reason) and spec.writers[o].text.strip()))]
