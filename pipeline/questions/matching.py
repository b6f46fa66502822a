"""`matching`: 2-8 prompts, each to be matched with its answer; extra wrong answers may be offered (`pairs`).

Pairs get ids p1, p2... and answers m1, m2... by source position (the pairs' answers, then the extras);
the answers are shown in a shuffle seeded by the question's id.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from pipeline.questions.base import Problem, QuestionBase, QuestionType, count_between, distinct
from pipeline.shapes.order import LETTERS, display_order
from pipeline.shapes.parts import Item, Pairs, Prompt
from pipeline.vocabulary.fields import Markdown, Strict, Text


class MatchPair(Strict):
    """One pair of a matching question: a prompt and the answer that goes with it."""

    prompt: Markdown = Field(description="What is shown on the left, in inline Markdown (e.g. a definition).")
    answer: Text = Field(description="What matches it, in inline Markdown (e.g. a term); answers of one question must differ.")


class MatchingQuestion(QuestionBase):
    """Match each prompt with its answer: 2-8 `pairs`, optional `extra_answers` that match nothing."""

    type: Literal["matching"] = Field(description="matching: match each prompt with its answer.")
    pairs: list[MatchPair] = Field(description="The prompt -> answer pairs (2-8).")
    extra_answers: list[Text] = Field(default_factory=list, description="Wrong answers offered beside the right ones.")
    shuffle: bool = Field(default=True, description="Show the answers in a shuffled order seeded by the id; false keeps the author's order.")


def answer_texts(q: MatchingQuestion) -> list[str]:
    return [p.answer for p in q.pairs] + list(q.extra_answers)


def parts(q: MatchingQuestion) -> tuple[Pairs]:
    answers = [Item(f"m{i}", text, "") for i, text in enumerate(answer_texts(q), start=1)]
    shown = display_order(f"{q.id}#answers", answers, [False] * len(answers), shuffle=q.shuffle)
    prompts = tuple(Prompt(f"p{i}", p.prompt, f"m{i}") for i, p in enumerate(q.pairs, start=1))
    return (Pairs(prompts, tuple(Item(a.id, a.text_md, LETTERS[i]) for i, a in enumerate(shown))),)


def check(q: MatchingQuestion) -> list[Problem]:
    problems = count_between(q, "pairs", 2, 8) + distinct([p.prompt for p in q.pairs], "pairs", "prompt")
    seen: set[str] = set()
    for i, text in enumerate(answer_texts(q)):
        if text.casefold() in seen:
            at = ("pairs", i, "answer") if i < len(q.pairs) else ("extra_answers", i - len(q.pairs))
            problems.append(Problem(at, f"answer {text!r} is given twice; every answer of a matching question must differ", "question-answer"))
        seen.add(text.casefold())
    return problems


TYPE = QuestionType("matching", MatchingQuestion, "Match each item with its answer.",
                    "each prompt matched with its answer scores an equal share", parts, check,
                    answer_words=lambda q: " ".join(f"{p.prompt} {p.answer}" for p in q.pairs), rank=5)
