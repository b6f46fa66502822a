"""`true_false`: a statement that is true or false. Its two options are always True then False (`choices`)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, StrictBool

from pipeline.questions.base import QuestionBase, QuestionType
from pipeline.shapes.parts import Choices, Option
from pipeline.vocabulary.variant_fields import Placeholder


class TrueFalseQuestion(QuestionBase):
    """True or false: `stem` is a statement, `answer` is true or false."""

    type: Literal["true_false"] = Field(description="true_false: a statement the learner judges true or false.")
    answer: StrictBool | Placeholder = Field(description="true when the statement is true, false when it is false (not quoted: \"yes\" is text); in a varied question `{{ name }}`.")


def parts(q: TrueFalseQuestion) -> tuple[Choices]:
    options = (Option("true", "True", q.answer is True, "A"), Option("false", "False", q.answer is False, "B"))
    return (Choices(options, true_false=True),)


TYPE = QuestionType("true_false", TrueFalseQuestion, "True or false?", "right when the true/false choice matches", parts,
                    answer_words=lambda q: "true" if q.answer else "false", rank=3)
