"""The content model: the single definition of what an exam's source files may say.

Two kinds of file exist. `exam.yaml` describes the exam (code, title, sections and their weights,
the review policy); every other YAML file in the exam folder is one objective (key points with their
citations, key terms, worked examples, labs and practice questions). The JSON Schemas that editors
use are generated from these classes (`python -m pipeline schema`), never written by hand.

A practice question's model belongs to its type: each module in pipeline/questions/ declares one, and
`Question` is their union, told apart by `type` (so an editor completes the fields of the type written).

The models check shape and types only. Rules that need more than one field, more than one file, the
date of today or a position in the source (answers among their options, unique ids, stale reviews)
live in `pipeline/check/rules.py` and in each question type's checks, which point at the exact YAML node.

Text fields hold Markdown (inline markup and fenced code). Raw HTML in them is text, never markup:
every renderer escapes it.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from pipeline.questions import Question
from pipeline.vocabulary.fields import (  # noqa: F401  (re-exported: the content vocabulary)
    LISTING,
    PAGE,
    PARAGRAPH,
    SCHEMA_BASE,
    SENTENCE,
    SHORT,
    FeedbackTemplate,
    HttpUrl,
    ItemId,
    Markdown,
    ObjectiveId,
    Paragraph,
    Slug,
    Strict,
    Text,
    Verbatim,
    _absolute_http_url,
)


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


class CheckSetting(Strict):
    """A check's severity with its threshold: the item-statistics checks (item-too-easy, item-too-hard,
    item-negative-discrimination, item-dead-distractor) take one; pipeline/check/thresholds.py has the defaults."""

    severity: Literal["error", "warning", "off"] = Field(default="warning", description="error, warning (the default) or off.")
    threshold: float | None = Field(default=None, description="The check's threshold: a facility (0-1), a point-biserial (-1 to 1) or a share of learners (0-1); leave out for the default.")
    min_responses: int | None = Field(default=None, ge=1, le=1_000_000, description="Judge an item only when at least this many learners answered it (default 30).")


class MockExam(Strict):
    """How the study site's timed mock exam is drawn, timed and passed (`mock_exam:` in exam.yaml; every key optional)."""

    questions: int = Field(default=50, ge=1, le=500, description="Questions per attempt (default 50), drawn by the sections' weights from the automatically graded questions; fewer when the bank holds fewer.")
    minutes: int = Field(default=60, ge=1, le=600, description="Time allowed (default 60 minutes); the attempt ends and is scored when it runs out.")
    pass_mark: int = Field(default=70, ge=0, le=100, alias="pass", description="Percent of the questions to get right to pass (default 70).")
    drills: bool = Field(default=False, description="Whether generated questions (drills) go into the site's mock exam and the guide's practice exam too (default false: authored questions only, as on the real exam).")


class ExamFacts(Strict):
    """`exam_facts:` in exam.yaml: where the mock exam's numbers come from. Each is a quote of the vendor's page,
    checked by `audit` like any quote; a number left out is shown as the author's choice, never as the vendor's."""

    questions: Citation | None = Field(default=None, description="A quote giving the real exam's number of questions (mock_exam.questions).")
    minutes: Citation | None = Field(default=None, description="A quote giving the real exam's time (mock_exam.minutes).")
    pass_mark: Citation | None = Field(default=None, alias="pass", description="A quote giving the real exam's pass mark (mock_exam.pass).")

    def cited(self) -> list[tuple[str, Citation]]:
        """(key as written in exam.yaml, its quote) for each fact that has one, in the order questions, minutes, pass."""
        return [(k, c) for k, c in (("questions", self.questions), ("minutes", self.minutes), ("pass", self.pass_mark)) if c is not None]


# A PEP 440 version, written so that no requirement can end like a file: pip takes a requirement that ends
# in an archive's extension (.whl, .tar.gz, .zip, ...) for a local file and installs it, building an
# sdist with its own backend. A name has no dot (the index reads `zope.interface` and `zope-interface` as
# one name), a version ends in a digit, `*`, or a one-part local label (+cpu).
_VERSION = r"(?:[0-9]+!)?[0-9]+(?:\.[0-9]+)*(?:\.\*|(?:(?:a|b|rc)[0-9]+)?(?:\.post[0-9]+)?(?:\.dev[0-9]+)?(?:\+[A-Za-z0-9]+)?)"
_CLAUSE = rf"(?:==|!=|>=|<=|~=|<|>)\s*{_VERSION}"
REQUIREMENT_PATTERN = rf"^[A-Za-z0-9](?:[A-Za-z0-9_-]*[A-Za-z0-9])?(?:\[[A-Za-z0-9_-]+(?:,[A-Za-z0-9_-]+)*\])?(?:\s*{_CLAUSE}(?:\s*,\s*{_CLAUSE})*)?$"
# A requirement as pip reads it from the package index: a name, optional extras and version clauses. No
# URL, path, archive file or pip option: an example's environment comes from the registry only.
Requirement = Annotated[
    str,
    StringConstraints(strip_whitespace=True, max_length=SHORT,
                      pattern=REQUIREMENT_PATTERN),
    Field(description="A package name from the index (letters, digits, - and _: write zope.interface as zope-interface) with optional "
                      "version clauses, e.g. torch==2.13.0; no file, archive (.whl, .tar.gz), path, URL or pip option"),
]


class ExamplesConfig(Strict):
    """`examples:` in exam.yaml: what the exam's worked examples need to run (see `python -m pipeline examples`)."""

    requirements: list[Requirement] = Field(default_factory=list, description="Packages every example of the exam gets, e.g. [torch==2.13.0]; none: the standard library only.")
    requirements_file: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")] | None = Field(
        default=None, description="A requirements file beside exam.yaml (one requirement a line, # comments), added to `requirements`.")
    timeout: int = Field(default=120, ge=1, le=3600, description="Seconds of wall-clock time an example may run before its processes are killed.")
    memory_mb: int = Field(default=4096, ge=64, le=65536, description="Address space an example's process may take, in MiB (RLIMIT_AS).")


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
    checks: dict[str, Literal["error", "warning", "off"] | CheckSetting] = Field(
        default_factory=dict,
        description="Severity per check code (the code printed in [brackets] after each message), e.g. {duplicate-stem: error, uncited-key-point: off}; "
                    "the item-statistics codes also take {severity: ..., threshold: N, min_responses: N}, e.g. {item-too-easy: {threshold: 0.9}}; "
                    "--strict still raises warnings.",
    )
    generated: Generated = Field(
        default_factory=lambda: Generated(),
        description="Which practice questions the pipeline generates from terms and cloze marks: {rules: [which-term, cloze, matching], suppress: [gen-...]}.",
    )
    mock_exam: MockExam = Field(default_factory=MockExam, description="The study site's mock exam: {questions: 50, minutes: 60, pass: 70} (the defaults).")
    examples: ExamplesConfig = Field(default_factory=ExamplesConfig, description="What the worked examples need to run: requirements, time and memory limits.")
    feedback: FeedbackTemplate | None = Field(
        default=None,
        description="Where learners report a bad item: an address with {id} for the question's id, linked on every question of the site and on the back of every question card.")
    exam_facts: ExamFacts = Field(default_factory=lambda: ExamFacts(), description="Quotes of the vendor's page for the mock exam's numbers: {questions: {url, title, quote}, minutes: ..., pass: ...}; a number without one is labelled the author's choice.")


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
    essential: Paragraph | None = Field(
        default=None,
        description="What the guide's \"Exam essentials\" box says of the point, in Markdown: a sentence or two that keep every number and term its questions test (validate warns when one is left out). Left out: the whole point stands in (its tables and figures left out).",
    )
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


class Tolerance(Strict):
    """How far a number the example prints may be from the recorded one: math.isclose(abs_tol, rel_tol)."""

    abs: float = Field(default=0.0, ge=0, description="Absolute tolerance, e.g. 1e-6.")
    rel: float = Field(default=0.0, ge=0, description="Relative tolerance, e.g. 1e-3 for 0.1%.")


class Example(Strict):
    """A worked example: code that the pipeline runs in a sandbox (`python -m pipeline examples`), and the
    output it printed. In `output`, `...` stands for any text (doctest's ELLIPSIS)."""

    id: ItemId = Field(description="Stable id, unique in the exam (e.g. 6.1-autocast-dtypes); keys the examples lock, the deck note and the anchors.")
    title: Text = Field(description="What the example shows.")
    language: Slug = Field(default="python", description="Language of the code: a Pygments lexer name (python, bash, console, sql, yaml, text...); shown with the code, checked against Pygments' list; only python examples are run.")
    code: Verbatim = Field(description="The code, as run; leading spaces are kept (a block whose first line is indented more than the rest needs an indentation indicator: `|4` when its lines stand 4 spaces past the key).")
    output: Verbatim = Field(description="What it printed, verbatim; `...` matches any text (e.g. an address or a timing); leading spaces are kept (a table whose header starts with a space needs an indentation indicator, e.g. `|4`).")
    note: Markdown | None = Field(default=None, description="What to take from the output, in Markdown.")
    requirements: list[Requirement] = Field(default_factory=list, description="Packages this example needs besides the exam's `examples.requirements`.")
    device: Literal["cpu", "cuda"] = Field(default="cpu", description="cuda: run only where a GPU is present (elsewhere it is reported needs-device).")
    stderr: Literal["show", "ignore"] = Field(default="show", description="show: what it writes to stderr is part of its output, in the order written; ignore: left out.")
    tolerance: Tolerance | None = Field(default=None, description="Numbers in the output may differ by this much: {abs: 1e-6} or {rel: 1e-3}.")
    timeout: int | None = Field(default=None, ge=1, le=3600, description="Seconds of wall-clock time before it is stopped (default: the exam's `examples.timeout`).")


class Lab(Strict):
    """A hands-on exercise elsewhere ('Try it')."""

    title: Text = Field(description="Name of the lab.")
    url: HttpUrl = Field(description="Where the lab is.")


class CheckYourself(Strict):
    """A check-yourself prompt with what a good answer holds: the guide's answer key prints it, the site shows it
    once the learner has tried, a card shows it on its back."""

    prompt: Paragraph = Field(description="The prompt, in Markdown (\"Say what autocast keeps in float32 and why\").")
    answer: Markdown = Field(description="What a good answer holds, in Markdown: the facts a candidate should have said.")


class Objective(Strict):
    """One objective file: everything a candidate needs for one exam objective."""

    id: ObjectiveId = Field(description="Objective number, quoted (\"6.1\"): the section's number and the objective's, up to 3 digits each.")
    title: Text = Field(description="The objective's title.")
    summary: Markdown = Field(description="One line on what the objective covers, in Markdown.")
    reviewed: dt.date = Field(description="When this objective's content was last checked against its sources (YYYY-MM-DD).")
    key_points: list[KeyPoint] = Field(min_length=1, description="The points to know.")
    terms: list[Term] = Field(default_factory=list, description="Key terms introduced here.")
    examples: list[Example] = Field(default_factory=list, description="Worked examples with their printed output.")
    labs: list[Lab] = Field(default_factory=list, description="Hands-on exercises ('Try it').")
    questions: list[Question] = Field(default_factory=list, description="Practice questions.")
    see: CrossRef | None = Field(default=None, description="Another objective to read with this one: {exam: ID, objective: \"N.M\"}.")
    check_yourself: list[Paragraph | CheckYourself] = Field(
        default_factory=list,
        description="Prompts a candidate answers on their own at the end of the objective (\"Say what autocast keeps in float32 and why\"), each a line or `{prompt, answer}` with what a good answer holds; printed in the guide (answers in its answer key), on the site (the answer shown after the learner tries) and as self-graded cards.",
    )
