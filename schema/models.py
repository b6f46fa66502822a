"""The content model: the single definition of what an exam's source files may say.

Two kinds of file exist. `exam.yaml` describes the exam (code, title, sections and their weights,
the review policy); every other YAML file in the exam folder is one objective (key points with their
citations, key terms, worked examples, labs and practice questions). The JSON Schemas that editors
use are generated from these classes (`python -m pipeline schema`), never written by hand.

The models check shape and types only. Rules that need more than one field, more than one file, the
date of today or a position in the source (answers among their options, unique ids, stale reviews)
live in `pipeline/check/rules.py`, which can point at the exact YAML node that is wrong.

Text fields hold Markdown (inline markup and fenced code). Raw HTML in them is text, never markup:
every renderer escapes it.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal
from urllib.parse import urlsplit

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints

SCHEMA_BASE = "https://exam-prep.invalid/schema"  # a name, not an address: schemas ship in `schema/`


def _absolute_http_url(value: str) -> str:
    """Accept only absolute http(s) addresses to a host, without credentials, on a valid port: an allow list,
    so a `javascript:`, `file:`, `smb:` or relative link never reaches a reader, and an audit never sends a password."""
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError("must be an absolute http:// or https:// address")
    if any(ch.isspace() or ord(ch) < 32 or ord(ch) == 127 for ch in value):
        raise ValueError("must not contain spaces or control characters (percent-encode spaces as %20)")
    if "@" in parts.netloc:
        raise ValueError("must not hold credentials (user:password@); cite a page readers can open")
    try:
        port = parts.port
    except ValueError:
        port = 0
    if port == 0 or not parts.hostname:
        raise ValueError("must name a host and, if any, a port from 1 to 65535")
    return value


# Lengths: generous for real content, small enough that a hostile source cannot make a card, a page or a
# report unreadable (a quote is a sentence or two; a stem fits on a page).
SHORT, SENTENCE, PARAGRAPH, PAGE, LISTING = 300, 600, 2000, 3000, 20_000
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=SHORT)]
Paragraph = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=PARAGRAPH)]
LongText = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=LISTING)]
Markdown = Annotated[str, StringConstraints(min_length=1, max_length=PAGE), Field(description="Markdown, inline markup.")]
HttpUrl = Annotated[
    str,
    StringConstraints(max_length=PARAGRAPH),
    AfterValidator(_absolute_http_url),
    Field(description="An absolute http:// or https:// address, without credentials.", json_schema_extra={"format": "uri"}),
]
Slug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]*$")]
ObjectiveId = Annotated[str, StringConstraints(pattern=r"^[0-9]+\.[0-9]+$")]
ItemId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$")]


class Strict(BaseModel):
    """Base of every model: unknown keys are errors, and models are immutable once loaded."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class ReviewPolicy(Strict):
    """How long a review date stays fresh."""

    max_age_days: int = Field(
        gt=0, le=3650, description="A `reviewed` date older than this many days is stale (a warning; an error under --strict)."
    )


class Section(Strict):
    """One section of the exam's official outline."""

    number: int = Field(ge=1, le=999, description="The section number in the vendor's outline; objective ids start with it (6 -> 6.1).")
    title: Text = Field(description="The section title as the vendor writes it.")
    weight: int = Field(ge=0, le=100, description="Percent of the exam this section accounts for, 0-100.")


GenerationRule = Literal["which-term", "cloze", "matching"]


class Generated(Strict):
    """The author's say over generated questions (drills): which rules run, which single items are left out."""

    rules: list[GenerationRule] = Field(
        default_factory=lambda: ["which-term", "cloze", "matching"],
        description="The generation rules that run: which-term (pick the term a definition defines), cloze (fill in a key point's gap), matching (definitions to terms). Leave one out to switch it off; [] generates nothing.",
    )
    suppress: list[ItemId] = Field(
        default_factory=list,
        description="Ids of generated questions to leave out (as `validate --verbose` lists them, e.g. gen-which-term-pruning); each is counted in coverage as suppressed.",
    )


class Exam(Strict):
    """`exam.yaml`: the exam as a whole."""

    id: Slug = Field(description="Stable id of the exam, lower case with dashes (e.g. nca-genm); used in output paths and note ids.")
    code: Text = Field(description="The vendor's exam code, e.g. NCA-GENM.")
    title: Text = Field(description="The exam's full title.")
    vendor: Text = Field(description="Whose documentation the quotes come from; shown as 'What <vendor> says'.")
    exam_page: HttpUrl = Field(description="The vendor's page for the exam, where the objective list is published.")
    reviewed: dt.date = Field(description="When the exam page's objective list was last checked (YYYY-MM-DD).")
    review_policy: ReviewPolicy = Field(description="How long review dates stay fresh.")
    sections: list[Section] = Field(min_length=1, description="The sections this content covers.")
    notes: Markdown | None = Field(default=None, description="Anything an author or reader should know about this content (numbering, scope).")
    checks: dict[str, Literal["error", "warning", "off"]] = Field(
        default_factory=dict,
        description="Severity per check code (the code printed in [brackets] after each message), e.g. {duplicate-stem: error, uncited-key-point: off}; --strict still raises warnings.",
    )
    generated: Generated = Field(
        default_factory=lambda: Generated(),
        description="Which practice questions the pipeline generates from terms and cloze marks: {rules: [which-term, cloze, matching], suppress: [gen-...]}.",
    )


class Citation(Strict):
    """A short quote from a page, with the page's address: the evidence behind a key point."""

    url: HttpUrl = Field(description="Address of the quoted page.")
    title: Text = Field(description="Title of the quoted page, as it shows it.")
    quote: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=SENTENCE)] = Field(
        description=f"The page's own words, at most {SENTENCE} characters; mark a cut with an ellipsis (...).")
    publisher: Text | None = Field(default=None, description="Who publishes the page, when not the exam's vendor (e.g. PyTorch).")


class CrossRef(Strict):
    """A pointer to another objective, of this exam or of another one ("explained in ... note")."""

    exam: Slug | None = Field(default=None, description="Id of the exam the objective belongs to; leave out for this exam.")
    objective: ObjectiveId = Field(description="The objective's number, quoted (\"6.2\").")


ClozeNumber = Annotated[str, StringConstraints(pattern=r"^c[1-9][0-9]?$|^c100$")]


class KeyPoint(Strict):
    """One thing a candidate must know, in the author's words, backed by citations."""

    id: ItemId = Field(description="Stable id, unique in the exam (e.g. 6.1-tensor-core-alignment); keeps notes and links stable across edits.")
    text: Markdown = Field(description="The point, in Markdown.")
    accept: dict[ClozeNumber, list[Text]] = Field(
        default_factory=dict,
        description="Other answers a fill-in made from a cloze mark accepts, by cloze number: {c1: [a few images]}.",
    )
    citations: list[Citation] = Field(default_factory=list, description="Quotes that back the point; a point without one is a warning.")
    see: CrossRef | None = Field(default=None, description="Another objective that explains this point further: {exam: ID, objective: \"N.M\"}.")


class Term(Strict):
    """A key term with its definition; feeds the glossary, term cards and generated questions."""

    term: Text = Field(description="The term, as a reader would look it up; unique in the exam (case-insensitive).")
    definition: Markdown = Field(description="One or two sentences, in Markdown, without repeating the term.")
    kind: Text | None = Field(
        default=None,
        description="What kind of thing the term names (technique, format, tool, metric, ...: free text, compared as written); generated questions take distractors of the same kind. Left out: read from the definition's head noun.",
    )
    accept: list[Text] = Field(default_factory=list, description="Other names of the term a fill-in accepts as the answer (synonyms; its acronym and expansion are found on their own).")


class Example(Strict):
    """A worked example: code that was run and the output it printed."""

    title: Text = Field(description="What the example shows.")
    language: Slug = Field(default="python", description="Language of the code, for highlighting.")
    code: LongText = Field(description="The code, as run.")
    output: LongText = Field(description="What it printed, verbatim.")
    note: Markdown | None = Field(default=None, description="What to take from the output, in Markdown.")


class Lab(Strict):
    """A hands-on exercise elsewhere ('Try it')."""

    title: Text = Field(description="Name of the lab.")
    url: HttpUrl = Field(description="Where the lab is.")


QuestionType = Literal["single", "multiple", "true_false", "short_answer", "matching", "ordering"]


class MatchPair(Strict):
    """One pair of a matching question: a prompt and the answer that goes with it."""

    prompt: Markdown = Field(description="What is shown on the left, in inline Markdown (e.g. a definition).")
    answer: Text = Field(description="What matches it, in inline Markdown (e.g. a term); answers of one question must differ.")


class Question(Strict):
    """A practice question. Which fields it needs depends on `type` (each type's module in pipeline/questions/ checks them).

    - single: 2-6 `options`, `answer` is the text of the one correct option.
    - multiple: 2-6 `options`, `answer` is a list of the correct options' texts (at least one).
    - true_false: no `options`, `answer` is true or false.
    - short_answer: no `options`, `answer` is the model answer.
    - matching: 2-8 `pairs` (prompt -> answer), answers distinct; optional `extra_answers` that match nothing.
    - ordering: 3-8 `items`, written in their correct order; shown shuffled.
    """

    id: ItemId = Field(description="Stable id, unique in the exam (e.g. 6.1-q1).")
    type: QuestionType = Field(description="single | multiple | true_false | short_answer | matching | ordering.")
    stem: Markdown = Field(description="The question, in Markdown.")
    options: list[Text] = Field(default_factory=list, description="Choices for single and multiple questions, in the author's order (shown shuffled unless `shuffle: false`).")
    answer: bool | Paragraph | list[Text] | None = Field(default=None, description="The correct option text (single), option texts (multiple), true/false, or a model answer (short_answer); none for matching and ordering.")
    pairs: list[MatchPair] = Field(default_factory=list, description="matching: the prompt -> answer pairs.")
    extra_answers: list[Text] = Field(default_factory=list, description="matching: wrong answers offered beside the right ones.")
    items: list[Text] = Field(default_factory=list, description="ordering: the items, in their correct order.")
    shuffle: bool = Field(default=True, description="Show options (or answers, or items) in a shuffled order seeded by the id; false keeps the author's order (e.g. for 'All of the above').")
    order: Literal["numeric"] | None = Field(
        default=None,
        description="single and multiple: `numeric` shows the options (all numbers, one unit) in ascending numerical order; options that all read as numbers get it without asking.",
    )
    explanation: Markdown = Field(description="Why the answer is right, in Markdown.")
    difficulty: Literal["easy", "medium", "hard"] = Field(default="medium", description="How hard the question is.")
    key_points: list[ItemId] = Field(default_factory=list, description="Ids of the key points (any objective of the exam) whose citations back this question.")


class Objective(Strict):
    """One objective file: everything a candidate needs for one exam objective."""

    id: ObjectiveId = Field(description="Objective number, quoted (\"6.1\"); its first part is the section number.")
    title: Text = Field(description="The objective's title.")
    summary: Markdown = Field(description="One line on what the objective covers, in Markdown.")
    reviewed: dt.date = Field(description="When this objective's content was last checked against its sources (YYYY-MM-DD).")
    key_points: list[KeyPoint] = Field(min_length=1, description="The points to know.")
    terms: list[Term] = Field(default_factory=list, description="Key terms introduced here.")
    examples: list[Example] = Field(default_factory=list, description="Worked examples with their printed output.")
    labs: list[Lab] = Field(default_factory=list, description="Hands-on exercises ('Try it').")
    questions: list[Question] = Field(default_factory=list, description="Practice questions.")
    see: CrossRef | None = Field(default=None, description="Another objective to read with this one: {exam: ID, objective: \"N.M\"}.")
    check_yourself: list[Paragraph] = Field(
        default_factory=list,
        description="Prompts a candidate answers on their own at the end of the objective (\"Say what autocast keeps in float32 and why\"); printed in the guide, on the site and as self-graded cards.",
    )
