"""Which key terms a question is about, so review never puts two items on the same term back to back.

A question is about a term when the term (any case, a plural ending allowed, whole words only) appears in
its stem or in its right answers: a which-term item's answer is its term, a generated matching item's
answers are its terms, an authored item about a term names it. Wrong options do not count, or every
which-term item would be "about" its three distractors too. Terms are named by their slug (term_forms).
"""

from __future__ import annotations

import re

from pipeline.shapes import registry
from pipeline.text.plaintext import to_plain
from pipeline.text.slug import slug
from pipeline.view.model import ExamView, QuestionView


def _pattern(term: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w])" + re.escape(term.casefold()) + r"(?:s|es)?(?![\w])")


def _right_answers(part) -> list[str]:
    return registry.of(part).right_answers(part)  # each shape's own (a number names no term); unknown: UnknownShape


def answer_side(q: QuestionView) -> list[str]:
    """The stem and the right answers of a question's parts, as Markdown."""
    return [q.stem_md] + [text for part in q.parts for text in _right_answers(part)]


def question_topics(view: ExamView) -> dict[str, list[str]]:
    """Question id -> the slugs of the exam's terms it is about, sorted."""
    terms = {slug(t.term): _pattern(t.term) for o in view.objectives for t in o.terms}
    result = {}
    for q in view.questions:
        text = " \n ".join(to_plain(t) for t in answer_side(q)).casefold()
        result[q.id] = sorted(name for name, pattern in terms.items() if pattern.search(text))
    return result
