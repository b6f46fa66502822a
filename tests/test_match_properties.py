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
from hypothesis import example, given  # noqa: E402
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


@given(st.lists(st.text(alphabet="ab \u00e9\u6f22.", min_size=1, max_size=4), min_size=1, max_size=5, unique=True),
       st.text(alphabet="ab \u00e9\u6f22.", max_size=60))
def test_the_automaton_reports_character_offsets_whether_or_not_the_text_is_ascii(patterns, text):
    # An ASCII text is searched as bytes (`normalize.matches`): its offsets must still be the characters' and
    # every occurrence, overlapping ones too, must be reported as the str automaton reports them.
    from ahocorasick_rs import AhoCorasick, Implementation

    from pipeline.citations.normalize import matches

    expected = AhoCorasick(patterns, implementation=Implementation.ContiguousNFA).find_matches_as_indexes(text, overlapping=True)
    found = matches(patterns, text)
    assert [tuple(m) for m in found] == [tuple(m) for m in expected]
    assert all(text[start:end] == patterns[index] for index, start, end in found)


@given(st.text(alphabet="ab1 \n'\"`.,\u00e9\u00df\u6f22\u30ab_-", max_size=400), st.integers(0, 300))
@example("ab, \u6f22\u30ab 'q' c_d " * 40, 250)  # 280 tokens: three whole runs, then one by one
@example("abcdef " * 100, 300)  # 100 words: one run, never a second one made of split words
def test_skipping_tokens_by_runs_lands_where_one_by_one_does(text, skip):
    # `text_span` skips a block's tokens SKIP_RUN at a time: the same place as taking them one by one.
    from itertools import islice

    from pipeline.citations.normalize import SKIP, SKIP_RUN, TOKEN

    at, left = 0, skip
    runs = 0
    while left >= SKIP_RUN and (run := SKIP.match(text, at)):
        at, left, runs = run.end(), left - SKIP_RUN, runs + 1
    one_by_one = next(islice(TOKEN.finditer(text), skip, None), None)
    by_runs = next(islice(TOKEN.finditer(text, at), left, None), None)
    assert (one_by_one and one_by_one.span()) == (by_runs and by_runs.span())
    assert runs == min(skip, len(TOKEN.findall(text))) // SKIP_RUN  # every whole run there was, and only those
