"""The shape registry (pipeline/shapes/registry.py): every shape answers for every output, with a writer that
exists or a stated reason; an unknown shape stops the build with a message (bank.json, the site's data), never
a fallback. The table of shape x output is printed (pytest -s) and is the one in the contributors' docs."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import pytest

from pipeline.render import bank
from pipeline.render.site import data, topics
from pipeline.shapes import grading, registry
from pipeline.shapes.parts import SHAPE_NAMES, Text


def _table() -> list[tuple[str, str, str]]:
    """(shape, output, the writer's reference or "- reason") for every pair."""
    rows = []
    for name, spec in registry.shapes().items():
        for output in registry.OUTPUTS:
            entry = spec.writers.get(output)
            rows.append((name, output, entry if isinstance(entry, str) else f"- {entry.text}" if entry else "MISSING"))
    return rows


def test_every_shape_has_a_writer_or_a_reason_for_every_output():
    rows = _table()
    assert len(rows) == len(registry.shapes()) * len(registry.OUTPUTS) >= 5 * 10  # the table saw every pair
    for name, output, entry in rows:
        print(f"{name:10} {output:11} {entry}")
    assert [(n, o) for n, o, e in rows if e == "MISSING"] == []
    assert {name: registry.missing(spec) for name, spec in registry.shapes().items()} == {name: [] for name in registry.shapes()}


def test_every_named_writer_exists_and_is_a_function():
    named = [(name, output) for name, spec in registry.shapes().items() for output in registry.OUTPUTS
             if isinstance(spec.writers.get(output), str)]
    assert len(named) >= 40  # most pairs have a writer
    for name, output in named:
        assert callable(registry.writer(name, output)), (name, output)


def test_a_removed_writer_fails_the_check():
    """Take one writer out of a shape: the check names the pair; an empty reason is no reason either."""
    spec = registry.named("numeric")
    without = dataclasses.replace(spec, writers={k: v for k, v in spec.writers.items() if k != "gift"})
    assert registry.missing(without) == ["gift"]
    blank = dataclasses.replace(spec, writers={**spec.writers, "gift": registry.Reason("  ")})
    assert registry.missing(blank) == ["gift"]
    assert registry.missing(spec) == []


def test_the_registry_finds_the_shapes_and_the_parts_module_names_them_in_its_order():
    assert registry.names() == SHAPE_NAMES
    assert SHAPE_NAMES[:5] == ("choices", "text", "pairs", "sequence", "numeric")
    for name, spec in registry.shapes().items():
        assert spec.part.shape == name and callable(spec.part.answer_md)


def test_a_reason_reaches_the_warning_of_a_skipped_question():
    assert "GIFT has no ordering question" in registry.reasons("gift")["sequence"]
    assert "sequence" not in registry.writers("gift") and "sequence" in registry.writers("moodle")


@dataclass(frozen=True)
class Drawing:
    """A part of a shape no module declares."""

    shape: ClassVar[str] = "drawing"

    def answer_md(self) -> str:
        return "a sketch"


def test_an_unknown_shape_is_an_error_in_the_bank_the_site_data_and_grading():
    part = Drawing()
    with pytest.raises(registry.UnknownShape, match="Drawing part is of no shape"):
        bank.bank_part(part)
    with pytest.raises(registry.UnknownShape):
        grading.rule(part)
    with pytest.raises(registry.UnknownShape):
        topics._right_answers(part)
    with pytest.raises(registry.UnknownShape, match="unknown shape 'drawing'"):
        grading.grade({"shape": "drawing"}, "x")
    with pytest.raises(registry.UnknownShape):
        registry.writer("drawing", "moodle")


def test_a_part_posing_as_a_known_shape_is_unknown_too():
    """A class that says shape "text" but is not the text shape's dataclass is not taken for it."""

    @dataclass(frozen=True)
    class Impostor:
        shape: ClassVar[str] = "text"
        accepted: tuple = ()

    with pytest.raises(registry.UnknownShape):
        registry.of(Impostor())
    assert registry.of(Text((), "m")).name == "text"


def test_the_site_data_of_a_question_with_an_unknown_part_fails():
    @dataclass(frozen=True)
    class Asked:  # what the site's data reads of a question
        type: str = "sketch"
        parts: tuple = (Drawing(),)

    with pytest.raises(registry.UnknownShape):
        data.answer_data(Asked())
    with pytest.raises(registry.UnknownShape):
        data.self_graded(Asked())


# --- no dispatch on a shape outside pipeline/shapes/ (issue 31 item 1: "every dispatch goes through it") ---

ROOT = Path(__file__).resolve().parent.parent
_JS_SHAPE_TEST = re.compile(r"""\bshape\s*[!=]==?\s*["']|["'][\w-]*["']\s*[!=]==?\s*[\w.\]\[]*\bshape\b""")


def _part_classes() -> set[str]:
    """Every class a shape module defines (its part, options, prompts, gaps...): none is tested outside them."""
    found = set()
    for spec in registry.shapes().values():
        module = sys.modules[spec.part.__module__]
        found |= {name for name, value in vars(module).items() if inspect.isclass(value) and value.__module__ == module.__name__}
    return found


def _names(node: ast.expr) -> set[str]:
    parts = node.elts if isinstance(node, ast.Tuple) else [node]
    return {p.id if isinstance(p, ast.Name) else p.attr for p in parts if isinstance(p, (ast.Name, ast.Attribute))}


def _is_shape(node: ast.expr) -> bool:
    return (isinstance(node, ast.Name) and node.id == "shape") or (isinstance(node, ast.Attribute) and node.attr == "shape")


def _is_text(node: ast.expr) -> bool:
    items = node.elts if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else [node]
    return bool(items) and all(isinstance(i, ast.Constant) and isinstance(i.value, str) for i in items)


def dispatches(python: list[Path], scripts: list[Path], classes: set[str]) -> list[str]:
    """`path:line: what` for each isinstance on a shape's class and each shape-name comparison."""
    found = []
    for path in python:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance"
                    and len(node.args) == 2 and _names(node.args[1]) & classes):
                found.append(f"{path}:{node.lineno}: isinstance on {sorted(_names(node.args[1]) & classes)}")
            if isinstance(node, ast.Compare):
                sides = [node.left, *node.comparators]
                if any(_is_shape(s) for s in sides) and any(_is_text(s) for s in sides):
                    found.append(f"{path}:{node.lineno}: shape compared with a name")
    for path in scripts:
        for n, line in enumerate(path.read_text().splitlines(), start=1):
            if _JS_SHAPE_TEST.search(line):
                found.append(f"{path}:{n}: shape compared with a name")
    return found


def _outside_shapes() -> tuple[list[Path], list[Path]]:
    python = sorted(p for p in (ROOT / "pipeline").rglob("*.py") if (ROOT / "pipeline" / "shapes") not in p.parents)
    return python, sorted((ROOT / "templates" / "site").glob("*.js"))


def test_no_module_outside_the_shapes_tests_a_part_class_or_a_shape_name():
    python, scripts = _outside_shapes()
    classes = _part_classes()
    assert len(python) > 100 and len(scripts) >= 3  # the scan saw the package and the site's scripts
    assert {"Choices", "Text", "Pairs", "Sequence", "Numeric", "Cloze", "Option"} <= classes
    assert dispatches(python, scripts, classes) == []


def test_the_dispatch_scan_finds_a_planted_test(tmp_path):
    """The scan can fail: an isinstance on a part class, a `.shape ==` and a `shape ===` are each found."""
    planted = tmp_path / "planted.py"
    planted.write_text("from pipeline.shapes.parts import Numeric, Pairs\n\n"
                       "def f(part):\n    if isinstance(part, (Pairs, str)):\n        return 1\n"
                       "    return part.shape == 'numeric' or part.shape in ('text', 'choices') or isinstance(part, int)\n")
    script = tmp_path / "planted.js"
    script.write_text('var a = 1;\nif (rule.shape === "text") { a = 2; }\nif ("pairs" !== el.dataset.shape) { a = 3; }\n')
    found = dispatches([planted], [script], _part_classes())
    assert [f.split(": ", 1)[0].rsplit(":", 1)[1] for f in found] == ["4", "6", "6", "2", "3"], found
    assert "isinstance on ['Pairs']" in found[0]


def test_a_shape_capability_is_asked_through_the_registry():
    """The analyses that once tested a part's class ask the shape's hooks: one key, a tolerance, option
    statistics, a long matching's cards; a shape without one says None, an unnamed hook is an error."""
    assert registry.hook("choices", "option_stats") is True and registry.hook("text", "option_stats") is None
    assert registry.hook("numeric", "tolerance") is not None and registry.hook("choices", "tolerance") is None
    assert callable(registry.hook("pairs", "anki_cards")) and registry.hook("sequence", "anki_cards") is None
    with pytest.raises(KeyError):
        registry.hook("choices", "drawing")
