"""The cloze part in bank.json: its model, which schema/bank.py adds to the parts' union (the registry's
`bank_model`), so the bank's JSON Schema carries it without a line there."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from pipeline.vocabulary.fields import BankModel


class BankGap(BankModel):
    """One gap of a cloze passage."""

    id: str = Field(description="Stable id within the question: g1, g2... in the passage's order.")
    accepted: list[str] = Field(description="Plain-text answers an automatic grader accepts for this gap (compared as a text part's are); the first is the one printed.")


class ClozePart(BankModel):
    """Fill in the gaps of a passage (QTI: one textEntryInteraction per gap)."""

    shape: Literal["cloze"] = Field(description="cloze: fill in several gaps of a passage, each scored on its own (an equal share each).")
    segments: list[str] = Field(description="The passage's Markdown around the gaps, in order: one more than `gaps` (a gap stands between two segments).")
    segments_html: list[str] = Field(description="`segments` rendered to safe inline HTML.")
    gaps: list[BankGap] = Field(description="The gaps in the passage's order.")
