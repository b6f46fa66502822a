"""A varied question in the LMS exports: each of its variants is an LMS question of its own, named
`<id>.vN`, and the variants are kept together so the platform gives each learner one of them.

Moodle XML and GIFT file the variants in a category of their own under the objective's
(`.../<objective>/<id> (variants)`): a quiz adds "a random question from" that category. QTI 2.1 puts them
in an assessmentSection with `<selection select="1"/>`; Canvas in a question group that picks 1.
"""

from __future__ import annotations

from dataclasses import replace

from pipeline.view.model import QuestionView


def variant_items(q: QuestionView) -> list[QuestionView]:
    """The variants of a varied question as questions of their own, filed in the question's category."""
    category = (*q.category_path, f"{q.id} (variants)")
    return [replace(v.question, id=f"{q.id}.v{v.index}", category_path=category) for v in q.variants]


def flattened(questions: list[QuestionView]) -> list[QuestionView]:
    """Every question as the category formats (Moodle, GIFT) write them: a varied one as its variants."""
    return [item for q in questions for item in (variant_items(q) if q.variants else [q])]
