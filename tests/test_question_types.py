"""Question types are plug-ins: each module of pipeline/questions/ declares its model, checks and parts; every
output writes shapes, and what an output cannot hold is derived and said, never an empty field."""

from __future__ import annotations

import dataclasses
import typing

import pytest
from pydantic import ValidationError

from pipeline.questions import QUESTION, TYPES, make_question
from pipeline.render.support import holds, writable
from pipeline.shapes.parts import SHAPE_NAMES
from pipeline.shapes.registry import UnknownShape
from schema.models import Objective
from tests.kit.view import view_of as question_view_of


def test_every_type_is_a_member_of_the_union_and_names_itself():
    (annotated,) = typing.get_args(Objective.model_fields["questions"].annotation)  # list[Question]
    union = typing.get_args(annotated)[0]
    assert {typing.get_args(m.model_fields["type"].annotation)[0] for m in typing.get_args(union)} == set(TYPES)
    assert all(typing.get_args(t.model.model_fields["type"].annotation) == (name,) for name, t in TYPES.items())


# One valid source per type; a test below fails when a type is added without one.
EXAMPLES = {
    "single": {"options": ["a", "b", "c"], "answer": "b"},
    "multiple": {"options": ["a", "b", "c"], "answer": ["a", "c"]},
    "true_false": {"answer": True},
    "short_answer": {"answer": "A model answer.", "accept": ["model"]},
    "matching": {"pairs": [{"prompt": "one", "answer": "1"}, {"prompt": "two", "answer": "2"}], "extra_answers": ["3"]},
    "ordering": {"items": ["x", "y", "z"]},
    "numeric": {"answer": 3.14, "tolerance": 0.01, "unit": "GB"},
    "cloze": {"text": "Keep the [___] and split the [___].", "gaps": [["model"], ["batch", "minibatch"]]},
}


def test_every_type_has_an_example_here():
    assert set(EXAMPLES) == set(TYPES)


@pytest.mark.parametrize("name", sorted(TYPES))
def test_a_type_turns_its_source_into_parts_of_known_shapes_with_an_answer(name):
    q = make_question(id=f"q-{name}", type=name, stem="s", explanation="e", **EXAMPLES[name])
    kind = TYPES[name]
    parts = kind.parts(q)
    assert parts and all(p.shape in SHAPE_NAMES for p in parts)
    assert kind.check(q) == []
    assert kind.answer_text(q, parts).strip()
    assert kind.prompt_for(q).endswith((".", "?"))


@pytest.mark.parametrize("name", sorted(TYPES))
def test_a_field_another_type_takes_is_refused_by_the_schema(name):
    others = {field for other, example in EXAMPLES.items() if other != name for field in example} - set(EXAMPLES[name])
    assert others, "every type has a field of its own"
    for field in sorted(others):
        source = {"id": "q", "type": name, "stem": "s", "explanation": "e", **EXAMPLES[name], field: EXAMPLES_VALUE[field]}
        with pytest.raises(ValidationError) as caught:
            QUESTION.validate_python(source)
        assert [e["type"] for e in caught.value.errors()] == ["extra_forbidden"], field


EXAMPLES_VALUE = {field: value for example in EXAMPLES.values() for field, value in example.items()}


def test_matching_rules():
    pairs = [{"prompt": "one", "answer": "1"}, {"prompt": "two", "answer": "1"}]
    problems = TYPES["matching"].check(make_question(id="q", type="matching", stem="s", explanation="e", pairs=pairs))
    assert [(path, message) for path, message, _ in problems] == [
        (("pairs", 1, "answer"), "answer '1' is given twice; every answer of a matching question must differ")
    ]
    one = TYPES["matching"].check(make_question(id="q", type="matching", stem="s", explanation="e", pairs=pairs[:1]))
    assert [m for _, m, _ in one] == ["a matching question needs 2 to 8 pairs, got 1"]


def test_ordering_rules():
    two = TYPES["ordering"].check(make_question(id="q", type="ordering", stem="s", explanation="e", items=["a", "b"]))
    assert [m for _, m, _ in two] == ["an ordering question needs 3 to 8 items, got 2"]
    same = TYPES["ordering"].check(make_question(id="q", type="ordering", stem="s", explanation="e", items=["a", "b", "A"]))
    assert [(p, m) for p, m, _ in same] == [(("items", 2), "item 'A' is given twice; items must differ")]


@dataclasses.dataclass(frozen=True)
class Hotspot:
    """A shape no module declares: what a new interaction would look like before its module exists."""

    shape: typing.ClassVar[str] = "hotspot"
    x: int = 0

    def answer_md(self) -> str:
        return "(10, 20)"


def test_a_shape_an_output_has_no_writer_for_is_skipped_with_a_warning_naming_the_question():
    plain = question_view_of(make_question(id="ok-1", type="true_false", stem="s", explanation="e", answer=True))
    ordered = question_view_of(make_question(id="seq-1", type="ordering", stem="s", explanation="e", items=["a", "b", "c"]))
    warnings: list[str] = []
    kept = writable([plain, ordered], {"choices": object()}, "gift", warnings)  # the shape's own reason is said
    assert [q.id for q in kept] == ["ok-1"]
    assert warnings == ["gift: question seq-1 (ordering) skipped: GIFT has no ordering question; use moodle.xml (Moodle 4.4+) or qti21.zip"]
    kept = writable([ordered], {"choices": object()}, "demo", warnings := [], why={"sequence": "no orders here"})
    assert (kept, warnings) == ([], ["demo: question seq-1 (ordering) skipped: no orders here"])
    assert holds(ordered, {"choices": 1}) == "sequence" and holds(plain, {"choices": 1}) is None
    odd = dataclasses.replace(plain, id="odd-1", parts=(Hotspot(),))  # a shape no module declares: an error, not a skip
    with pytest.raises(UnknownShape, match="Hotspot part is of no shape"):
        writable([odd], {"choices": object()}, "demo", [])
    two = dataclasses.replace(plain, id="two-1", parts=plain.parts * 2)
    assert holds(two, {"choices": 1}, max_parts=1) == "parts"
