"""A question's view without an exam around it: for tests of what one question looks like in an output."""

from __future__ import annotations

from pipeline.derive.questions import Origin, question_view
from pipeline.questions import QuestionBase as Question
from pipeline.view.model import QuestionView


class _NoCitations:
    """A question alone names no key points of an exam: nothing backs it."""

    def behind(self, key_points) -> tuple:
        return ()


def view_of(question: Question, objective: str = "6.1") -> QuestionView:
    origin = Origin(objective, int(objective.split(".")[0]), 1, ("EX", "6 Section", f"{objective} Objective"), "o.yaml", 1, None, "ex")
    return question_view(question, origin, _NoCitations())
