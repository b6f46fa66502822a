"""`single`: choose the one correct option among 2-6 (`choices`)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from pipeline.questions._choices import answer_words, answers_among_options, option_rules, parts
from pipeline.questions.base import Problem, QuestionBase, QuestionType
from pipeline.vocabulary.fields import Text


class SingleQuestion(QuestionBase):
    """Choose one: 2-6 options, `answer` is the text of the one correct option."""

    type: Literal["single"] = Field(description="single: one correct option among 2-6.")
    options: list[Text] = Field(description="The choices, in the author's order (shown shuffled unless `shuffle: false`).")
    answer: Text = Field(description="The text of the correct option, exactly as in `options`.")
    shuffle: bool = Field(default=True, description="Show the options in a shuffled order seeded by the id; false keeps the author's order (e.g. for 'All of the above').")
    order: Literal["numeric"] | None = Field(
        default=None, description="`numeric`: the options are numbers (one unit), shown in ascending order; options that all read as numbers get it without asking.")


def check(q: SingleQuestion) -> list[Problem]:
    return option_rules(q) + answers_among_options(q, [q.answer])


TYPE = QuestionType("single", SingleQuestion, "Choose one.", "right when the one correct option is chosen",
                    parts, check, answer_words=answer_words, rank=1)
