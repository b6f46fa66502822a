"""`short_answer`: a written answer (`text`). With `accept:` answers it is graded automatically (a fill-in);
without, the learner compares theirs with the model answer (self-graded; an essay in an LMS)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from pipeline.questions.base import QuestionBase, QuestionType
from pipeline.shapes.grading import RULE_TEXT
from pipeline.shapes.parts import Text as TextPart
from pipeline.vocabulary.fields import Paragraph, Text


class ShortAnswerQuestion(QuestionBase):
    """Answer in a sentence or two: `answer` is the model answer."""

    type: Literal["short_answer"] = Field(description="short_answer: a written answer, compared with a model answer.")
    answer: Paragraph = Field(description="The model answer, in Markdown.")
    accept: list[Text] = Field(default_factory=list, description=f"Short answers an automatic grader accepts ({RULE_TEXT}); leave out when a person must compare with the model answer.")


def parts(q: ShortAnswerQuestion) -> tuple[TextPart]:
    return (TextPart(tuple(q.accept), q.answer, long=not q.accept),)


TYPE = QuestionType("short_answer", ShortAnswerQuestion, "Answer in a sentence or two.",
                    f"graded automatically when accepted answers are listed ({RULE_TEXT}), else by comparing with the model answer",
                    parts, answer_md=lambda q, parts: q.answer, answer_words=lambda q: q.answer,
                    prompt_of=lambda q: "Fill in the blank." if q.accept else "Answer in a sentence or two.", rank=4)
