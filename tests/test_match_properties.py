"""Property tests (hypothesis): changing, adding or dropping one word or number of a found quote never
stays found.

Pages are made of distinct words and numbers, so a changed quote cannot happen to stand elsewhere on the
page; new words come from a vocabulary no page word starts with, since a quote may legitimately end in a
word cut short. Dropping the first or last word leaves words that are on the page, so only inner words
are dropped.
"""

from __future__ import annotations

import pytest

hypothesis = pytest.importorskip("hypothesis")  # pinned in requirements.txt; `make test` installs it
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from pipeline.citations.normalize import NormalizedPage  # noqa: E402
from pipeline.citations.quote_match import find  # noqa: E402

SYLLABLES = ["ka", "lo", "mi", "ren", "tu", "vas", "sel", "dor", "pi", "qua"]
PAGE_WORDS = sorted({a + b for a in SYLLABLES for b in SYLLABLES} | {str(n) for n in range(2, 60)})
NEW_WORDS = ["zzfoo", "zzbar", "zzquux", "zz7", "zznot"]
NEW_NUMBERS = [str(n) for n in range(100, 110)]


@st.composite
def page_and_quote(draw):
    words = draw(st.permutations(PAGE_WORDS))[: draw(st.integers(20, 80))]
    length = draw(st.integers(3, 12))
    start = draw(st.integers(0, len(words) - length))
    return words, words[start : start + length]


def page_of(words: list[str]) -> NormalizedPage:
    return NormalizedPage.of(" ".join(words))


@given(page_and_quote())
def test_the_quote_itself_is_found(case):
    words, quote = case
    assert find(" ".join(quote), page_of(words)).found


@given(page_and_quote(), st.data())
def test_a_changed_word_or_number_is_not_found(case, data):
    words, quote = case
    i = data.draw(st.integers(0, len(quote) - 1))
    quote[i] = data.draw(st.sampled_from(NEW_NUMBERS if quote[i].isdigit() else NEW_WORDS))
    assert not find(" ".join(quote), page_of(words)).found


@given(page_and_quote(), st.data())
def test_an_added_word_or_number_is_not_found(case, data):
    words, quote = case
    quote.insert(data.draw(st.integers(0, len(quote))), data.draw(st.sampled_from(NEW_WORDS + NEW_NUMBERS)))
    assert not find(" ".join(quote), page_of(words)).found


@given(page_and_quote(), st.data())
def test_a_dropped_inner_word_is_not_found(case, data):
    words, quote = case
    del quote[data.draw(st.integers(1, len(quote) - 2))]
    assert not find(" ".join(quote), page_of(words)).found


@given(page_and_quote(), st.data())
def test_an_added_negation_is_not_found(case, data):
    words, quote = case
    quote.insert(data.draw(st.integers(1, len(quote))), "not")
    assert not find(" ".join(quote), page_of(words)).found
