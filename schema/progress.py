"""The learner's progress on the study site, as the site keeps it and exports it: a versioned JSON document.

The site stores it in the browser (localStorage, one key per exam and format version) and a learner can
export it, import it into another browser or a newer build of the site, and read it with any tool;
`progress.schema.json` is generated from these classes (`python -m pipeline schema`) and ships in the
site's `assets/`. It holds each card's FSRS state and due time (ts-fsrs's card fields), the review log,
the first answers of each session and the mock exam attempts. Times are ISO 8601 in UTC.

Importing into a newer build keeps what still matches by question id and content hash (the bank's
`content_hash`): a question that changed since it was reviewed starts over, one that is gone is dropped.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

PROGRESS_VERSION = 1  # a new version when an older site could no longer read the document

Hash = Annotated[str, Field(pattern=r"^[0-9a-f]{16}$", description="The question's content hash (bank.json content_hash) when this was recorded.")]
PartResponse = list[str] | dict[str, str] | str | None  # option ids or items in order, {prompt id: answer id}, or text
Response = list[PartResponse] | None  # one per part of the question, in part order; null when revealed first


class ProgressModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FsrsCard(ProgressModel):
    """A card's FSRS memory state and schedule, as ts-fsrs keeps it (FSRS-6, default parameters)."""

    due: dt.datetime = Field(description="When the card is next due.")
    stability: float = Field(ge=0, description="FSRS stability: days until recall probability falls to 90%.")
    difficulty: float = Field(ge=0, le=10, description="FSRS difficulty, 1-10 (0 before the first review).")
    elapsed_days: int = Field(ge=0, description="Days between the last two reviews (ts-fsrs counts calendar days in UTC).")
    scheduled_days: int = Field(ge=0, description="Days from the last review to `due` (0 while in a learning step).")
    learning_steps: int = Field(ge=0, description="The learning or relearning step the card is at.")
    reps: int = Field(ge=0, description="Reviews so far.")
    lapses: int = Field(ge=0, description="Times the card was forgotten (rated Again in review).")
    state: Literal[0, 1, 2, 3] = Field(description="0 new, 1 learning, 2 review, 3 relearning.")
    last_review: dt.datetime | None = Field(description="When the card was last reviewed; null before the first review.")


class LastAnswer(ProgressModel):
    """The learner's latest answer to a question, shown on the question after a reload."""

    response: Response = Field(description="What was answered, one entry per part: option ids, {prompt id: answer id}, item ids in the learner's order, or the typed text; null when the answer was revealed first.")
    result: Literal["right", "wrong", "revealed"] = Field(description="How it was marked; revealed: the answer was shown before answering (rated Again).")
    rating: Literal[1, 2, 3, 4] | None = Field(description="The FSRS rating it gave (1 Again, 2 Hard, 3 Good, 4 Easy); null when it rated nothing (a repeat the same day).")
    time: dt.datetime = Field(description="When.")


class StudySession(ProgressModel):
    """The latest session (the learner's local day) in which a card was answered, and its first answer's result."""

    day: dt.date = Field(description="The local day: a later answer that day changes no score and rates nothing (but a learning step come due).")
    result: Literal["right", "wrong", "revealed"] = Field(description="How the session's first answer was marked: what the score counts.")


class Card(ProgressModel):
    """One question as a card."""

    hash: Hash
    fsrs: FsrsCard | None = Field(description="The FSRS state; null for a card never rated.")
    last: LastAnswer | None = Field(description="The latest answer; null when never answered.")
    session: StudySession | None = Field(description="The latest session the card was answered in; null when never answered.")
    variant: int | None = Field(default=None, ge=1, description="A varied question: the variant answered last (review shows the next one); absent otherwise.")


class Review(ProgressModel):
    """One FSRS review: a rating given to a card."""

    card_id: str = Field(description="The question id.")
    review_time: dt.datetime = Field(description="When.")
    rating: Literal[1, 2, 3, 4] = Field(description="1 Again, 2 Hard, 3 Good, 4 Easy.")
    state: Literal[0, 1, 2, 3] = Field(description="The card's state before the review (0 new, 1 learning, 2 review, 3 relearning).")
    hash: Hash
    variant: int | None = Field(default=None, ge=1, description="A varied question: the variant that was answered; absent otherwise.")


class Answer(ProgressModel):
    """A first answer of a session, or a mock exam answer: what item statistics read."""

    card_id: str = Field(description="The question id.")
    time: dt.datetime = Field(description="When.")
    response: Response = Field(description="What was answered (as in LastAnswer).")
    score: Literal[0, 1] = Field(description="1 right, 0 wrong (a self-graded answer rated Again, or revealed, is 0).")
    mode: Literal["practice", "mock"] = Field(description="practice: the site's pages and review mode; mock: a mock exam attempt.")
    hash: Hash
    variant: int | None = Field(default=None, ge=1, description="A varied question: the variant that was answered; absent otherwise.")


class MockAttempt(ProgressModel):
    """One mock exam attempt: drawn from `seed`, so the same seed draws the same questions in the same order."""

    seed: int = Field(ge=0, le=4294967295, description="The draw's seed.")
    started: dt.datetime = Field(description="When it started.")
    finished: dt.datetime | None = Field(description="When it ended; null while under way.")
    minutes: int = Field(ge=1, description="The time allowed.")
    pass_mark: int = Field(ge=0, le=100, description="Percent needed to pass.")
    questions: list[str] = Field(description="The question ids drawn, in the order shown.")
    answers: dict[str, Response] = Field(description="Question id -> the response given (unanswered ones left out).")
    flagged: list[str] = Field(description="Questions flagged for review.")
    right: list[str] = Field(description="The questions answered right (empty until finished).")
    timed_out: bool = Field(description="Whether time ran out before the learner finished.")
    variants: dict[str, Annotated[int, Field(ge=1)]] | None = Field(
        default=None, description="A varied question's id -> the variant the attempt asked (the one after the variant seen last); absent when it asked none.")


class LearnerSettings(ProgressModel):
    retention: float = Field(ge=0.7, le=0.99, description="Desired retention: the recall probability at which a card comes due (default 0.9).")
    learner: str | None = Field(default=None, pattern=r"^u-[0-9a-f]{8}$", description="A random pseudonym, made at the first answers CSV export: the `learner` of its rows.")


class Progress(ProgressModel):
    """A learner's progress on one exam's study site."""

    format: Literal["exam-prep-progress"] = Field(description="Always exam-prep-progress.")
    version: Literal[1] = Field(description="The format's version.")
    exam: str = Field(description="The exam's id.")
    exported: dt.datetime | None = Field(description="When the document was exported; null in the browser's own copy.")
    settings: LearnerSettings = Field(description="The learner's settings.")
    cards: dict[str, Card] = Field(description="Question id -> its card; questions never answered are left out.")
    log: list[Review] = Field(description="Every FSRS review, oldest first (the review log CSV is made from it).")
    answers: list[Answer] = Field(description="First answers of each session and mock exam answers, oldest first.")
    mocks: list[MockAttempt] = Field(description="Mock exam attempts, oldest first.")
