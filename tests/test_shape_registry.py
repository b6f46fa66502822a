"""The shape registry (pipeline/shapes/registry.py): every shape answers for every output, with a writer that
exists or a stated reason; an unknown shape stops the build with a message (bank.json, the site's data), never
a fallback. The table of shape x output is printed (pytest -s) and is the one in the contributors' docs."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
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
