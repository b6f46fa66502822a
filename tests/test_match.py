"""Matching on strings: what a page may change without changing its words, and what it may not.

The cases come from the seed quotes (../shared/reference/seed-quote-sources.md): quotes across line
breaks, in table cells, with code spans and curly quotes, fragments starting mid-sentence, cut mid-word,
with ellipses, and drift between versions of a page.
"""

from __future__ import annotations

import pytest

from pipeline.citations.normalize import NormalizedPage, tokens
from pipeline.citations.pagetext import visible_text
from pipeline.citations.quote_match import Kind, find

PAGE = """Get Started
When the parameters are small (bandwidth-limited or memory-bound),
speeding up calculation does not improve performance.
Tensor Cores are most efficient when key parameters of the operation are multiples of 4 if using TF32,
8 if using FP16, or 16 if using INT8.
Choosing a smaller \\(r\\) can save a lot of parameters and memory and achieve faster training. However, a smaller \\(r\\) can potentially decrease task-specific information captured in the low-rank matrices.
First, you delete what\u2019s known as the \u201closs output\u201d layer, which is the final layer used to make predictions, and replace it with a new loss output layer for horse prediction.
Many sequences are short, and a few are very long, conforming to Zipf\u2019s\u00a0Law.
We are centralizing all quantization related development to torchao
some operations use the torch.float32 (float) datatype and other operations use lower precision floating point datatype
"""


@pytest.fixture(scope="module")
def page():
    return NormalizedPage.of(PAGE)


def kind(quote: str, page: NormalizedPage) -> Kind | None:
    return find(quote, page).kind


@pytest.mark.parametrize(("quote", "expected"), [
    ("speeding up calculation does not improve performance.", Kind.EXACT),  # a fragment, mid-sentence
    ("memory-bound), speeding up calculation", Kind.EXACT),  # across a line break: whitespace is never a difference
    ("Tensor Cores are most efficient when key parameters of the operation are multiples of 4 if using TF32, 8 if using FP16, or 16 if using INT8", Kind.EXACT),
    ("First, you delete what's known as the \"loss output\" layer", Kind.NORMALIZED),  # straight for curly quotes
    ("first, you delete WHAT\u2019S KNOWN as the \u201closs output\u201d layer", Kind.NORMALIZED),  # case
    ("conforming to Zipf's Law", Kind.NORMALIZED),  # apostrophe and a non-breaking space
    ("conforming to Zipf\u2019s Law.", Kind.EXACT),  # a non-breaking space is whitespace
    ("We are centralizing all quantization related development to torchao.", Kind.NORMALIZED),  # a period the page lacks
    ("Choosing a smaller \\(r\\) can save a lot of parameters and memory and achieve faster training. However, a smaller \\(r\\) can potentially decrease task-specific information captu", Kind.EXACT),
    ("Tensor Cores are most efficient when key parameters of the operation are multiples of 4 ...", Kind.NORMALIZED),
    ("Tensor Cores are most efficient \u2026 8 if using FP16 [...] 16 if using INT8", Kind.NORMALIZED),
    ("speeding   up\tcalculation\n does not", Kind.EXACT),  # runs of whitespace
    ("speeding up calcu\u00adlation does not im\u200bprove", Kind.NORMALIZED),  # soft hyphen, zero-width space
    ("bandwidth\u2013limited or memory\u2014bound", Kind.NORMALIZED),  # dashes
    ("precedence CLI &gt; YAML", None),  # not on this page at all
])
def test_found_despite_presentation(page, quote, expected):
    assert kind(quote, page) == expected


def test_entities_in_the_quote_are_decoded():
    page = NormalizedPage.of(visible_text("<p>the following precedence <code>CLI &gt; YAML &gt; Dataclass</code>.</p>"))
    assert find("the following precedence CLI &gt; YAML &gt; Dataclass", page).kind == Kind.EXACT


def test_quote_in_a_table_cell():
    page = NormalizedPage.of(visible_text("<table><tr><td>Precision</td><td>Training is conducted in Bfloat16 precision.</td></tr></table>"))
    assert find("Training is conducted in Bfloat16 precision.", page).found
    assert not find("Precision Training is conducted", NormalizedPage.of("PrecisionTraining is conducted")).found


@pytest.mark.parametrize("quote", [
    "speeding up calculation does improve performance",  # a dropped negation
    "speeding up calculation does not not improve performance",  # an added word
    "speeding up calculation does not improve throughput",  # a changed word
    "multiples of 8 if using TF32",  # a changed number
    "multiples of 4 if using TF3",  # a number is never cut mid-word
    "multiples of 44 if using TF32",
    "some operations use the torch.float32 datatype and other operations use lower precision",  # row 19: " (float)" dropped
    "We are cetralizing all quantization related development to torchao",  # row 20: a misspelling
    "Tensor Cores are most efficient ... 8 if using FP32",  # a fragment changed
    "16 if using INT8 ... Tensor Cores are most efficient",  # fragments out of order
])
def test_changed_words_are_not_found(page, quote):
    match = find(quote, page)
    assert not match.found
    assert match.kind == Kind.FUZZY and 0.75 <= match.score < 1


def test_cut_mid_word_only_at_the_end(page):
    assert find("Tensor Cores are most effic", page).found
    assert not find("ensor Cores are most efficient", page).found
    assert not find("speeding up calculation does no", page).found  # a negation is never a cut word


def test_fragments_must_stand_in_one_passage():
    far = NormalizedPage.of("alpha beta gamma " + "filler " * 200 + "delta epsilon")
    assert not find("alpha beta ... delta epsilon", far).found
    near = NormalizedPage.of("alpha beta gamma " + "filler " * 20 + "delta epsilon")
    assert find("alpha beta ... delta epsilon", near).found


def test_closest_passage_for_a_drifted_quote(page):
    match = find("Checkpointing few activations and recomputing the rest", NormalizedPage.of(
        "Intro text here. Checkpointing a few activations and recomputing the rest is a common technique. Outro."))
    assert match.kind == Kind.FUZZY
    assert match.passage == "Checkpointing a few activations and recomputing the rest"
    assert match.score == pytest.approx(0.98, abs=0.02)


def test_nothing_close_is_missing(page):
    match = find("The quick brown fox jumps over the lazy dog", page)
    assert (match.kind, match.found) == (None, False)
    assert match.score < 0.75


def test_found_passage_is_the_page_text(page):
    assert find("what's known as the \"loss output\" layer", page).passage == "what\u2019s known as the \u201closs output\u201d layer"


def test_normalized_tokens():
    assert tokens("Zipf\u2019s\u00a0Law \u2014 \u201cTF32\u201d, mul\u00adtiples\u2026") == ["zipf", "s", "law", "-", "tf32", ",", "multiples", ".", ".", "."]


def test_only_an_ellipsis_is_not_found(page):
    assert find("...", page) == find("[…]", page)
    assert not find("...", page).found


def test_a_changed_last_word_stays_in_the_closest_passage():
    match = find("Things are made of stuff.", NormalizedPage.of("Intro. Things are made of wood. Next sentence here."))
    assert (match.kind, match.passage) == (Kind.FUZZY, "Things are made of wood")


def test_the_joined_form_is_the_tokens_of_the_text_across_blocks():
    """The page is joined block by block with str methods: the same tokens as TOKEN finds, whatever the text;
    a passage late on the page is found again in the text of its block."""
    import random

    from pipeline.citations.normalize import BLOCK, TOKEN, fold, visible_form

    rng = random.Random(7)
    pieces = ["word", "Wörter", "x_y", "3.5", "(a)", "—", "«quoted»", "it's", "`code`", "\u00a0", "\n\n", "\t", "\u2028", "a,b", "!?", "\x85", "é",
              "小さな", "GPUでも", "显卡上"]
    text = " ".join(rng.choice(pieces) for _ in range(BLOCK))
    page = NormalizedPage.of(text)
    assert len(page.block_text) > 2
    assert page.joined == " " + " ".join(TOKEN.findall(fold(visible_form(text)))) + " "
    at = text.index(" ", 2 * BLOCK)
    page = NormalizedPage.of(text[:at] + " unique marker here Wörter a,b (a) it's" + text[at:])
    assert find("unique marker here Wörter a, b (a)", page).passage == "unique marker here Wörter a,b (a)"
