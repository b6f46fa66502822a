"""`multiple`: choose all that apply among 2-6 options, at least one of them right (`choices`)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from pipeline.questions._choices import answer_words, answers_among_options, option_rules, parts
from pipeline.questions.base import Problem, QuestionBase, QuestionType
from pipeline.vocabulary.fields import Text


class MultipleQuestion(QuestionBase):
    """Choose all that apply: 2-6 options, `answer` lists the correct ones (at least one)."""

    type: Literal["multiple"] = Field(description="multiple: choose all that apply among 2-6 options.")
    options: list[Text] = Field(description="The choices, in the author's order (shown shuffled unless `shuffle: false`).")
    answer: list[Text] = Field(description="The texts of the correct options, exactly as in `options` (at least one).")
    shuffle: bool = Field(default=True, description="Show the options in a shuffled order seeded by the id; false keeps the author's order.")
    order: Literal["numeric"] | None = Field(
        default=None, description="`numeric`: the options are numbers (one unit), shown in ascending order; options that all read as numbers get it without asking.")


def check(q: MultipleQuestion) -> list[Problem]:
    problems = option_rules(q)
    if not q.answer:
        problems.append(Problem(("answer",), "a multiple question needs at least one correct option", "question-answer"))
    if len(set(q.answer)) != len(q.answer):
        problems.append(Problem(("answer",), "the same option is listed twice among the answers", "question-answer"))
    return problems + answers_among_options(q, q.answer)


TYPE = QuestionType("multiple", MultipleQuestion, "Choose all that apply.",
                    "right when exactly the correct options are chosen; each correct option chosen scores an equal share, "
                    "each wrong one takes a share away (never below zero)",
                    parts, check, answer_words=answer_words, rank=2)
