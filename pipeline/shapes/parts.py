"""The parts a question shows, each of one interaction shape (after QTI 2.1's interactions).

| shape      | QTI interaction            | what the learner does                      | response            |
| ---------- | -------------------------- | ------------------------------------------ | ------------------- |
| `choices`  | choiceInteraction          | picks one option, or several               | option ids          |
| `text`     | textEntry / extendedText   | writes a word, a phrase or a paragraph     | text                |
| `pairs`    | matchInteraction           | matches each prompt with an answer         | prompt id -> answer |
| `sequence` | orderInteraction           | puts items in order                        | item ids, in order  |
| `numeric`  | textEntry (float), a range | gives a number, within a tolerance         | text of a number    |

A question type (pipeline/questions/) turns its source into a tuple of parts; every renderer writes these
shapes and never a type's name. Everything is settled here: display order (a shuffle seeded by the
question's id), display letters, correct answers and the grading facts. Text fields ending `_md` are
Markdown from the sources; renderers escape or render them at their edge.

Each shape lives in its own module or folder (pipeline/shapes/registry.py finds them); this module only
names them together, for the readers that import the dataclasses from one place.
"""

from __future__ import annotations

from typing import Union

from pipeline.shapes import registry
from pipeline.shapes.choices import Choices, Option
from pipeline.shapes.numeric import Numeric
from pipeline.shapes.pairs import Item, Pairs, Prompt
from pipeline.shapes.sequence import Sequence
from pipeline.shapes.text import Text

SHAPES: tuple[type, ...] = tuple(s.part for s in registry.shapes().values())
SHAPE_NAMES = registry.names()
Part = Union[SHAPES]  # noqa: UP007 (a union of the shapes found, not a hand-kept list)

__all__ = ["SHAPES", "SHAPE_NAMES", "Choices", "Item", "Numeric", "Option", "Pairs", "Part", "Prompt", "Sequence", "Text"]
