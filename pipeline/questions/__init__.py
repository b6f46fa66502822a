"""Question types as plug-ins: every module in this package that defines `TYPE` is one (modules whose
name starts with `_` hold helpers that several types share), and so is a shape folder's `question` module
(pipeline/shapes/<name>/question.py, for a type that comes with its shape).

A type owns its meaning in its module (pipeline/questions/base.py says what it declares). `Question` is
the union of the types' source models, told apart by `type`; `TYPES` maps each name to its type. Adding a
type that fits an existing interaction shape is one module here plus, if it wants its own look, its
templates: the schema, the view and every output pick it up (tests/test_question_types.py checks them).
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from typing import Annotated, Union

from pydantic import Field, TypeAdapter

from pipeline.questions.base import Problem, QuestionBase, QuestionType

_NOT_TYPES = {"base"}


def _modules() -> list[str]:
    """This package's type modules, then each shape folder's `question` module (pipeline/shapes/<name>/question.py:
    a shape that brings its own question type keeps it beside the shape)."""
    import pipeline.shapes as shapes

    own = [f"{__name__}.{m.name}" for m in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name)
           if m.name not in _NOT_TYPES and not m.name.startswith("_")]
    folders = [f"{shapes.__name__}.{m.name}.question" for m in sorted(pkgutil.iter_modules(shapes.__path__), key=lambda m: m.name)
               if m.ispkg and importlib.util.find_spec(f"{shapes.__name__}.{m.name}.question") is not None]
    return own + folders


def _discover() -> dict[str, QuestionType]:
    found: dict[str, QuestionType] = {}
    for name in _modules():
        module = importlib.import_module(name)
        kind = getattr(module, "TYPE", None)
        if kind is None:
            continue
        if kind.name in found:
            raise RuntimeError(f"question type {kind.name!r} is declared twice ({module.__name__})")
        found[kind.name] = kind
    return dict(sorted(found.items(), key=lambda item: (item[1].rank, item[0])))


TYPES: dict[str, QuestionType] = _discover()
# The source model of any question: the member is chosen by `type` (pydantic's discriminated union), so
# errors speak of that type's fields and the JSON Schema completes them per type.
Question = Annotated[Union[tuple(t.model for t in TYPES.values())], Field(discriminator="type")]  # noqa: UP007
QUESTION = TypeAdapter(Question)


def type_of(name: str) -> QuestionType:
    return TYPES[name]


def make_question(**fields) -> QuestionBase:
    """A question of the type named by `fields["type"]`, validated like a source's (for generated ones)."""
    return QUESTION.validate_python(fields)


__all__ = ["QUESTION", "TYPES", "Problem", "Question", "QuestionBase", "QuestionType", "make_question", "type_of"]
