"""Question types are plug-ins: every output renders every registered type (or names why it cannot)."""

from __future__ import annotations

import importlib
import typing

import pytest

from pipeline.questions import TYPES
from pipeline.render import RENDERERS, output
from schema.models import Question, QuestionType


def test_the_registry_and_the_schema_name_the_same_types():
    assert set(TYPES) == set(typing.get_args(QuestionType))


@pytest.mark.parametrize("name", sorted(RENDERERS))
def test_every_output_renders_every_type(name):
    module = importlib.import_module(output(RENDERERS[name]).module)
    supported = set(getattr(module, "TYPES", ()))
    skipped = set(getattr(module, "SKIPPED", {}))  # a format that cannot hold a type says why, per type
    missing = set(TYPES) - supported - skipped
    assert not missing, f"output {name!r} ({module.__name__}) renders no {sorted(missing)} questions: add it to its TYPES with its templates"


@pytest.mark.parametrize("kind", sorted(TYPES))
def test_a_field_a_type_does_not_take_is_an_error(kind):
    extra = {"options": ["a", "b"], "answer": "a", "pairs": [{"prompt": "p", "answer": "q"}], "items": ["x", "y", "z"]}
    unused = [f for f in extra if f not in TYPES[kind].fields]
    question = Question(id="q", type=kind, stem="s", explanation="e", **{f: extra[f] for f in unused})
    problems = TYPES[kind].check(question)
    assert {path[0] for path, _, code in problems if code == "question-options" and "takes no" in _} == set(unused)


def test_matching_rules():
    pairs = [{"prompt": "one", "answer": "1"}, {"prompt": "two", "answer": "1"}]
    problems = TYPES["matching"].check(Question(id="q", type="matching", stem="s", explanation="e", pairs=pairs))
    assert [(path, message) for path, message, _ in problems] == [
        (("pairs", 1, "answer"), "answer '1' is given twice; every answer of a matching question must differ")
    ]
    one = TYPES["matching"].check(Question(id="q", type="matching", stem="s", explanation="e", pairs=pairs[:1]))
    assert [m for _, m, _ in one] == ["a matching question needs 2 to 8 pairs, got 1"]


def test_ordering_rules():
    two = TYPES["ordering"].check(Question(id="q", type="ordering", stem="s", explanation="e", items=["a", "b"]))
    assert [m for _, m, _ in two] == ["an ordering question needs 3 to 8 items, got 2"]
    same = TYPES["ordering"].check(Question(id="q", type="ordering", stem="s", explanation="e", items=["a", "b", "A"]))
    assert [(p, m) for p, m, _ in same] == [(("items", 2), "item 'A' is given twice; items must differ")]
