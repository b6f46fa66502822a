"""The practice bank (`bank.json`): the contract quiz apps, LMS importers and later outputs read.

One file per exam: the exam and its sections, every question (authored and generated) in a shape a
Moodle XML, GIFT or QTI 2.1 converter needs nothing else for, and a coverage table. `bank.schema.json`
is generated from these classes (`python -m pipeline schema`), never written by hand.

Conventions a consumer can rely on:
- Every key is always present; a value that does not apply is `null` or an empty list.
- Markdown fields come with an `_html` twin rendered by the project's one safe Markdown renderer
  (raw HTML in the sources is escaped), so a converter needs no Markdown library.
- What a learner answers is in `parts`, each of one interaction shape (after QTI's interactions): `choices`,
  `text`, `pairs`, `sequence` or `numeric`. A converter writes shapes, so a new question type that fits a
  shape needs nothing new; `type` says which authoring type the question came from.
- The truth about what is right lives in the parts (options' `correct` flags, accepted answers, a pair's
  `answer_id`, `correct_order`, a numeric range); `answer` is the same answer as text, for people.
- The same sources give a byte-identical file: keys sorted, items in a fixed order, no clock.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal, Union

from pydantic import Field

from pipeline.questions import TYPES
from pipeline.shapes import registry
from pipeline.vocabulary.fields import BankModel
from schema.citation_status import Status

# 2.0: a question's answerable content moved into `parts` (one interaction shape each), replacing the
# per-type fields options, pairs, answers, items, correct_order and accepted_answers; `numeric` added.
# 2.1: `content_hash` per question (saved progress tells a changed question by it), more drop reasons (the
#      gate of pipeline/practice/gate.py) and `numeric` on a choices part.
# 2.2: `mock_only` per question (held out for mock exams); the drop reason `context_shows_answer` (pipeline/check/shown_with.py).
# 2.3: varied questions (each one's template and variants).
# 2.4: `media`: the image files the texts show, each copied to `media/<path>` beside bank.json with its
#      SHA-256 (Markdown fields point at them as `media:<path>`, the `_html` twins as `media/<path>`).
# 2.5: the distractor lint's drop reasons (pipeline/check/distractor_lint.py), item-reused-options naming the item it repeats in duplicate_of.
# 2.6: the `cloze` part (pipeline/shapes/cloze/: a passage's segments and its gaps, each with its accepted answers)
#      and the `cloze` question type.
SCHEMA_VERSION = "2.6"  # bump the major part when a consumer would break; the minor when fields are added
QuestionTypeName = Literal[tuple(TYPES)]  # every registered question type (pipeline/questions/)

Rule = Literal["which-term", "term-meaning", "cloze", "matching"]
DropReason = Literal[
    "near_duplicate", "id_taken", "suppressed", "definition_too_short", "too_few_distractors",
    "stem_contains_answer", "option_contains_answer", "prompt_contains_answer", "placeholder_blank", "grading",
    "several_gaps", "gap_too_long", "gap_not_a_term_or_number", "gap_paraphrased", "too_long", "invalid", "options_differ_in_case",
    # the item-writing lint's own codes (pipeline/check/item_lint.py), as authored questions get them
    "item-long-answer", "item-all-none-above", "item-negative-stem", "item-overlapping-options", "item-answer-in-stem", "item-points-elsewhere",
    "context_shows_answer",
    # the distractor lint (pipeline/check/distractor_lint.py)
    "item-one-wrong-option", "item-option-contradicts-stem", "item-mixed-option-kinds", "item-numbers-out-of-order", "item-reused-options",
]
Flag = Literal["no_question", "no_authored_question", "no_citation"]


class BankSection(BankModel):
    """One section of the exam's outline."""

    number: int = Field(description="The section number in the vendor's outline (objective 6.1 belongs to section 6).")
    title: str = Field(description="The section title as the vendor writes it.")
    weight: int = Field(description="Percent of the exam this section accounts for, 0-100.")


class BankExam(BankModel):
    """The exam the bank belongs to."""

    id: str = Field(description="Stable id of the exam (lower case with dashes); the output folder's name.")
    code: str = Field(description="The vendor's exam code, e.g. NCA-GENM.")
    title: str = Field(description="The exam's full title.")
    vendor: str = Field(description="Whose documentation the quotes come from.")
    sections: list[BankSection] = Field(description="The sections this content covers, by number.")


class BankOption(BankModel):
    """One option of a `choices` part, in display order."""

    id: str = Field(description="Stable id within the question: a, b, c... by source position (true and false for a true/false statement).")
    letter: str = Field(description="A, B, C... by display position: what a reader refers to.")
    text: str = Field(description="The option, in inline Markdown (plain text for a true/false statement: True, False).")
    text_html: str = Field(description="`text` rendered to safe inline HTML (no enclosing <p>).")
    correct: bool = Field(description="Whether choosing this option is right: exactly one is unless the part is `multiple` (then at least one).")


class BankChoice(BankModel):
    """A matching answer or a sequence item, in display order."""

    id: str = Field(description="Stable id within the question: m1, m2... for matching answers (the pairs' answers, then the extra wrong ones); i1, i2... for sequence items, numbered in their correct order.")
    letter: str = Field(description="A, B, C... by display position.")
    text: str = Field(description="The text, in inline Markdown.")
    text_html: str = Field(description="`text` rendered to safe inline HTML.")


class ChoicesPart(BankModel):
    """Pick the right option(s) (QTI choiceInteraction)."""

    shape: Literal["choices"] = Field(description="choices: pick one option, or several when `multiple`.")
    multiple: bool = Field(description="Whether any number of options may be right (choose all that apply); scored right only when exactly the right ones are chosen.")
    true_false: bool = Field(description="Whether the part is a statement to judge: its options are True then False, never shuffled.")
    numeric: bool = Field(description="Whether the options are numbers, shown in ascending numerical order rather than shuffled.")
    options: list[BankOption] = Field(description="The options in display order (a shuffle seeded by the question id, the same in every output; numbers in ascending order).")


class TextPart(BankModel):
    """Write an answer (QTI textEntryInteraction, or extendedTextInteraction when a person grades it)."""

    shape: Literal["text"] = Field(description="text: a written answer.")
    accepted: list[str] = Field(description="Plain-text answers an automatic grader accepts, compared with case, spacing and punctuation ignored (hyphens count as spaces; a point or comma between digits counts; every word and number must be there); empty when a person must compare with the model answer (an essay).")
    model_answer: str | None = Field(description="The model answer, in Markdown; null when the accepted answers say it all.")
    model_answer_html: str | None = Field(description="`model_answer` rendered to safe HTML, null when `model_answer` is.")
    long: bool = Field(description="Whether a paragraph is expected (an essay box) rather than a word or phrase.")


class BankPair(BankModel):
    """One prompt of a `pairs` part and the answer that matches it."""

    id: str = Field(description="Stable id within the question: p1, p2... by source position.")
    prompt: str = Field(description="The prompt, in Markdown.")
    prompt_html: str = Field(description="`prompt` rendered to safe inline HTML.")
    answer_id: str = Field(description="Id of the matching answer in `answers`.")


class PairsPart(BankModel):
    """Match each prompt with its answer (QTI matchInteraction)."""

    shape: Literal["pairs"] = Field(description="pairs: match each prompt with an answer.")
    prompts: list[BankPair] = Field(description="The prompts in the author's order, each with the id of its answer.")
    answers: list[BankChoice] = Field(description="Every answer (the right ones and extra wrong ones) in display order.")


class SequencePart(BankModel):
    """Put the items in order (QTI orderInteraction)."""

    shape: Literal["sequence"] = Field(description="sequence: put the items in their correct order.")
    items: list[BankChoice] = Field(description="The items in display order (never the correct one).")
    correct_order: list[str] = Field(description="The items' ids in their correct order.")


class NumericPart(BankModel):
    """Give a number within a tolerance (QTI textEntryInteraction of base type float, scored by range)."""

    shape: Literal["numeric"] = Field(description="numeric: a number, right within [low, high].")
    value: float = Field(description="The right number.")
    value_text: str = Field(description="The right number as the author wrote it (what outputs print).")
    tolerance: float = Field(description="The absolute tolerance (a relative one resolved against the value); 0 for an exact answer.")
    tolerance_text: str = Field(description="The tolerance as written: \"0.01\" or \"2%\"; empty for an exact answer.")
    low: float = Field(description="The smallest number scored right: value - tolerance, computed exactly from the decimals as written.")
    high: float = Field(description="The largest number scored right: value + tolerance.")
    unit: str | None = Field(description="The unit the number is in, e.g. GB; a learner may type it after the number. Null when none.")


# The built-in shapes' parts, then each shape folder's own (pipeline/shapes/<name>/: its `bank_model`).
BankPart = Annotated[Union[(ChoicesPart, TextPart, PairsPart, SequencePart, NumericPart,  # noqa: UP007
                            *(s.bank_model for s in registry.shapes().values() if s.bank_model is not None))], Field(discriminator="shape")]


class BankCitation(BankModel):
    """A quote from a page that backs the question, through one of its key points."""

    key_point: str = Field(description="Id of the key point the quote backs.")
    url: str = Field(description="Address of the quoted page.")
    title: str = Field(description="Title of the quoted page.")
    publisher: str | None = Field(description="Who publishes the page when it is not the exam's vendor, else null.")
    quote: str = Field(description="The page's own words; a cut is marked with an ellipsis (...).")
    status: Status = Field(description="The last check of the quote against the page, from the citation lock (unchecked when never checked).")
    checked: dt.date | None = Field(description="When the quote was last checked (YYYY-MM-DD), null when never.")


class SourceRef(BankModel):
    """Where the question comes from, for an author to jump to."""

    file: str = Field(description="The YAML file, relative to the exam's folder (sources/<exam>/), with / separators.")
    line: int = Field(description="1-based line of the question (authored) or of the term or key point it was generated from.")


VariantValue = bool | int | float | str


class BankVariant(BankModel):
    """One variant of a varied question: its values and what they make, rendered (since 2.3)."""

    index: int = Field(ge=1, description="The variant's number, 1..count; variant 1 is the one the question's own fields show.")
    seed: int = Field(ge=0, description="The seed it was drawn with (from the question's id, its variants.seed and the index).")
    values: dict[str, VariantValue] = Field(description="The values by name, as generate(seed) returned them or the values: lists gave them.")
    stem: str = Field(description="The stem with this variant's values, in Markdown.")
    stem_html: str = Field(description="`stem` rendered to safe HTML.")
    parts: list[BankPart] = Field(description="What the learner answers in this variant (options shuffled by the variant's own id).")
    answer: str = Field(description="This variant's answer as a person reads it, in Markdown.")
    answer_html: str = Field(description="`answer` rendered to safe HTML.")
    explanation: str = Field(description="The explanation with this variant's values, in Markdown.")
    explanation_html: str = Field(description="`explanation` rendered to safe HTML.")
    content_hash: str = Field(pattern=r"^[0-9a-f]{16}$", description="As the question's `content_hash`, over this variant.")


class BankQuestion(BankModel):
    """One practice question."""

    id: str = Field(description="Stable id from the sources: the author's id, or gen-<rule>-<id of the term or key point>[-c<cloze number>] for generated ones.")
    type: QuestionTypeName = Field(description="The authoring type the question came from (pipeline/questions/); what to answer is in `parts`.")
    prompt: str = Field(description="The instruction a learner reads, e.g. \"Choose one.\"")
    objective: str = Field(description="Id of the objective the question belongs to, e.g. 6.1.")
    section: int = Field(description="Number of the section the objective belongs to.")
    category_path: list[str] = Field(description="Exam code, section and objective (number and title), for LMS question categories; join with the separator the LMS uses.")
    title: str = Field(description="A short plain-text name for the question (its stem, shortened), for LMS question lists.")
    stem: str = Field(description="The question, in Markdown.")
    stem_html: str = Field(description="`stem` rendered to safe HTML (block level).")
    parts: list[BankPart] = Field(description="What the learner answers: one part per interaction, each of one shape (today every question has one part).")
    answer: str = Field(description="The answer as a person reads it (an answer key, a card's back), in Markdown: e.g. \"B. Dynamic batching\", \"True\", a model answer, \"3.14 GB (± 0.01)\".")
    answer_html: str = Field(description="`answer` rendered to safe HTML.")
    scoring: str = Field(description="How an answer is scored, in a sentence.")
    explanation: str = Field(description="Why the answer is right, in Markdown; general feedback after answering.")
    explanation_html: str = Field(description="`explanation` rendered to safe HTML.")
    difficulty: Literal["easy", "medium", "hard"] = Field(description="How hard the question is.")
    tags: list[str] = Field(description="Sorted tags without spaces: the exam id, section-N, objective-N.N, the difficulty, and authored or the generating rule.")
    key_points: list[str] = Field(description="Ids of the key points that back the question, as the sources list them.")
    citations: list[BankCitation] = Field(description="The quotes of those key points, in key point order; empty when none back it.")
    source: SourceRef = Field(description="Where in the sources the question comes from.")
    content_hash: str = Field(pattern=r"^[0-9a-f]{16}$", description="16 hex digits of SHA-256 over what a learner sees and is graded on (the type, stem, prompt, parts with their keys, answer and scoring; not the explanation, citations or difficulty): changes exactly when the question does, so saved progress on it (the study site's) starts over. Not an id: two questions may share it.")
    mock_only: bool = Field(default=False, description="Held out for mock exams (the source's `mock_only: true`): a tool that builds practice from the bank leaves it out, as the study site and the deck do (since 2.2).")
    template: dict[str, Any] | None = Field(
        default=None, description="A varied question as written: its fields with their {{ name }} placeholders and its `variants:` (code or values); null for a question that does not vary (since 2.3).")
    variants: list[BankVariant] | None = Field(
        default=None, description="A varied question's built variants, 1 first (the question's own fields are variant 1's); null for a question that does not vary (since 2.3).")
    generated: Literal[False] | Rule = Field(
        description="false for an authored question, else the rule that generated it: which-term (pick the term a definition defines), term-meaning (pick a term's definition; no longer generated: one single-choice item per term), cloze (fill in a key point's cloze gap), matching (match definitions of a group of terms with the terms)."
    )


class ObjectiveCoverage(BankModel):
    """What one objective contributes to the bank."""

    id: str = Field(description="The objective's id, e.g. 6.1.")
    title: str = Field(description="The objective's title.")
    authored: int = Field(description="Questions written by authors.")
    generated: int = Field(description="Questions generated from its terms and key points (after dropping near-duplicates).")
    terms: int = Field(description="Key terms defined in it.")
    key_points: int = Field(description="Key points in it.")
    quotes: int = Field(description="Citations (quotes) backing its key points.")
    flags: list[Flag] = Field(description="Gaps to fill: no_question (no question at all), no_authored_question (generated ones only), no_citation (no quote behind any key point).")
    by_type: dict[str, int] = Field(description="Questions (authored and generated) per type, e.g. {\"single\": 4}; types without a question left out.")
    by_difficulty: dict[str, int] = Field(description="Questions per difficulty (easy, medium, hard); difficulties without a question left out.")
    authored_by_type: dict[str, int] = Field(description="Authored questions per type (the rest of by_type is generated).")
    answer_positions: dict[str, int] = Field(description="Where the correct answers of its single-choice questions with 3 or more options (those whose options are numbers in numerical order left out) sit in display order: {\"A\": 2, \"B\": 1, ...}, every letter up to the longest question's; flat is good.")


class SectionCoverage(BankModel):
    """What one section contributes, against its weight in the exam."""

    number: int = Field(description="The section number.")
    title: str = Field(description="The section title.")
    weight: int = Field(description="Percent of the exam the section accounts for.")
    weight_share: float = Field(description="The section's weight as a percent of the weights of the sections covered here (one decimal).")
    question_share: float = Field(description="The section's questions as a percent of all questions in the bank (one decimal); compare with weight_share.")
    authored: int = Field(description="Authored questions in the section.")
    generated: int = Field(description="Generated questions in the section.")
    terms: int = Field(description="Key terms in the section.")
    quotes: int = Field(description="Quotes backing the section's key points.")
    objectives: list[ObjectiveCoverage] = Field(description="The section's objectives, in outline order.")


class DroppedQuestion(BankModel):
    """A generated question left out of the bank, and why."""

    id: str = Field(description="The id the generated question would have had.")
    rule: Rule = Field(description="The rule that generated it.")
    reason: DropReason = Field(description=(
        "Why it was left out. near_duplicate: its stem and answer nearly repeat an authored question's of the same section; id_taken: another question "
        "already has its id; suppressed: exam.yaml's generated.suppress lists it; definition_too_short: the definition has too few words to identify "
        "anything; too_few_distractors: fewer than three other terms of the same kind in the objective and section (a matching question: no term "
        "left over to add as a wrong answer); stem_contains_answer, option_contains_answer, prompt_contains_answer: that text holds a form of the "
        "answer (compared by word stem: inflections, plurals, acronyms, expansions, possessives); placeholder_blank: a blank where no gap is asked "
        "for; grading: the item's answer key does not grade (its type's checks, or a fill-in that rejects its own answer); several_gaps, "
        "gap_too_long (more than four words), gap_not_a_term_or_number, gap_paraphrased (the text shown around a cloze gap gives it away); "
        "too_long: a text it would hold (stem, explanation, option, prompt, answer) is longer than the schema lets an author write; invalid: a text it "
        "would hold is one the schema refuses otherwise (empty); options_differ_in_case: (no longer made: the type's checks report it as grading); "
        "item-*: the item-writing lint's warning of that code; context_shows_answer: the objective's or section's title, shown with the item "
        "(page heading, deck name, card context line), holds a form of its answer."))
    duplicate_of: str | None = Field(description="Id of the question it repeats (near_duplicate), whose id it would take (id_taken: the same id) or whose options it offers again (item-reused-options); null for the other reasons.")
    score: float | None = Field(description="near_duplicate: the rapidfuzz ratio of the two questions' plain stem and answer texts, 0-100; null for id_taken.")


class Coverage(BankModel):
    """How well the content covers the exam, and what the generator left out."""

    authored: int = Field(description="Authored questions in the bank.")
    generated: int = Field(description="Generated questions in the bank.")
    sections: list[SectionCoverage] = Field(description="Per section, by number.")
    dropped: list[DroppedQuestion] = Field(description="Generated questions left out, by id.")
    dropped_by_reason: dict[str, int] = Field(description="How many generated questions were left out for each reason (see dropped[].reason); reasons with none left out.")
    notes: list[str] = Field(description="Plain-text notes on the generation, e.g. rules skipped for want of material.")


class BankMedia(BankModel):
    """One image file the bank's texts show, copied beside bank.json (since 2.4)."""

    path: str = Field(description="Where the file is, relative to bank.json: media/<its path in the exam's source folder>.")
    sha256: str = Field(description="SHA-256 of the file's bytes, lower-case hex: a consumer checks its copy against it.")
    media_type: str = Field(description="image/png, image/jpeg, image/gif, image/webp or image/svg+xml, read from the bytes.")
    size: int = Field(description="Bytes.")
    width: int | None = Field(description="Pixels across, for a raster image; null for SVG (it scales).")
    height: int | None = Field(description="Pixels down, for a raster image; null for SVG.")
    alt: str = Field(description="The alt text the file is first shown with in the sources.")


class Bank(BankModel):
    """`bank.json`: one exam's practice questions."""

    schema_version: Literal[SCHEMA_VERSION] = Field(description="Version of this format: the major part changes when a consumer would break.")
    exam: BankExam = Field(description="The exam.")
    questions: list[BankQuestion] = Field(description="Every question: objectives in outline order; in each, authored questions in source order, then generated ones by id.")
    coverage: Coverage = Field(description="Questions, terms and quotes per section and objective, and the generator's notes.")
    media: list[BankMedia] = Field(default_factory=list, description="Every image file the texts show, by path (since 2.4).")

