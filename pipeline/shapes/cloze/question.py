"""`cloze`: a passage with several gaps ("fill in the blanks"), each gap with its own accepted answers.

    - id: 3.2-q4
      type: cloze
      stem: Complete the sentence.
      text: "Data parallelism keeps a copy of the [___] on every GPU and splits the [___] between them."
      gaps:
        - [model, weights]
        - [batch, minibatch]
      explanation: ...

A gap is `[___]` in `text`; `gaps` lists each gap's accepted answers in order (the first is printed in the
answer key). Scored per gap, an equal share each.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from pipeline.questions.base import Problem, QuestionBase, QuestionType, distinct
from pipeline.shapes.cloze import GAP, Cloze, Gap
from pipeline.shapes.grading import RULE_TEXT
from pipeline.vocabulary.fields import Paragraph, Text


class ClozeQuestion(QuestionBase):
    """Fill in the gaps of a passage: `text` marks each gap `[___]`; `gaps` gives each one's accepted answers."""

    type: Literal["cloze"] = Field(description="cloze: fill in several gaps of a passage, each with its own accepted answers.")
    text: Paragraph = Field(description=f"The passage, in Markdown, each gap written {GAP}.")
    gaps: list[list[Text]] = Field(min_length=1, description=f"Each gap's accepted answers, in the passage's order ({RULE_TEXT}); the first is printed in the answer key.")


def check(q: ClozeQuestion) -> list[Problem]:
    marks = q.text.count(GAP)
    problems: list[Problem] = []
    if marks != len(q.gaps):
        problems.append((("gaps",), f"the text has {marks} gap{'s' if marks != 1 else ''} ({GAP}) and `gaps` lists {len(q.gaps)}; give one list of answers per gap", "question-options"))
    for i, accepted in enumerate(q.gaps):
        if not accepted:
            problems.append((("gaps", i), f"gap {i + 1} has no accepted answer", "question-options"))
        problems += [((("gaps", i, *path[1:])), message, code) for path, message, code in distinct(list(accepted), "gaps", "answer")]
    return problems


def parts(q: ClozeQuestion) -> tuple[Cloze]:
    return (Cloze(tuple(q.text.split(GAP)), tuple(Gap(f"g{n}", tuple(a)) for n, a in enumerate(q.gaps, start=1))),)


TYPE = QuestionType("cloze", ClozeQuestion, "Fill in the blanks.",
                    f"each gap scores an equal share when its answer is one of the gap's accepted answers ({RULE_TEXT})",
                    parts, check, answer_words=lambda q: " ".join(g[0] for g in q.gaps if g), rank=8)
