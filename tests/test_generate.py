"""The question generator: real distractors, no give-aways, deterministic picks, repeats dropped with a note.

Scenario fixtures: `terms_four` (four terms, cloze marks of every kind), `terms_other_section` (one term
alone in section 2: no drill, as distractors come from its section only), `near_duplicate_question` (authored questions a generated one would repeat).
"""

from __future__ import annotations

import datetime as dt

import pytest

from pipeline.check.validate import validate
from pipeline.practice.distractors import Candidate, pick_distractors
from pipeline.practice.generate import NEAR_DUPLICATE, Generation, authored, comparable_text, generate
from pipeline.practice.terms import without_asides
from pipeline.text.plaintext import to_plain
from pipeline.text.slug import slug
from schema.models import Term
from tests.conftest import FULL, TODAY


def _content(sources):
    result = validate(sources, dt.date.fromisoformat(TODAY))
    assert result.ok, [d.format() for d in result.report.errors]
    return result.exams[0]


def _by_id(generation: Generation) -> dict:
    return {s.question.id: s for s in generation.questions}


@pytest.fixture
def demo(make_sources):
    return _content(make_sources("valid", "terms_four", "terms_other_section"))


@pytest.fixture(scope="module")
def sample():
    return _content(FULL)


def test_too_few_terms_gives_no_term_question_and_says_why(make_sources):
    generation = generate(_content(make_sources("valid")))  # one term, "An object made of stuff."; a gap "made of stuff"
    assert generation.questions == []
    assert [(d.id, d.reason) for d in generation.dropped] == [("gen-cloze-1.1-things-c1", "gap_not_a_term_or_number"), ("gen-which-term-thing", "definition_too_short")]
    assert generation.notes == ["no matching question for 1.1: it has fewer than 3 terms whose definitions do not name them"]


def test_each_term_gets_one_which_term_question_unless_its_definition_names_it_or_its_options_repeat(demo):
    """The fixture's four gadgets are the only terms of their kind in the section, so every which-term draft
    offers the same four options: the first (Widget) is kept and the later ones are dropped as
    item-reused-options, naming the item they repeat (issue 34 item 8: "the same four terms three times")."""
    generation = generate(demo)
    ids = _by_id(generation)
    assert "gen-which-term-widget" in ids and not any(i.startswith("gen-term-meaning-") for i in ids)
    dropped = {(d.id, d.reason, d.duplicate_of) for d in generation.dropped}
    assert {("gen-which-term-gizmo", "item-reused-options", "gen-which-term-widget"), ("gen-which-term-sprocket", "item-reused-options", "gen-which-term-widget")} <= dropped
    assert ("gen-which-term-cache", "stem_contains_answer", None) in dropped  # "Caches keep ..."


def test_distractors_are_other_terms_of_the_section_only(demo):
    ids = _by_id(generate(demo))
    section_1 = {"Thing", "Widget", "Gizmo", "Sprocket", "Cache"}
    widget = ids["gen-which-term-widget"].question
    assert widget.answer == "Widget" and set(widget.options) - {"Widget"} < section_1 - {"Widget"}
    assert "gen-which-term-gadget" not in ids  # alone in section 2: no distractor from elsewhere


def test_options_are_four_distinct_sorted_with_the_answer_once(demo):
    singles = [sourced.question for sourced in generate(demo).questions if sourced.question.type == "single"]
    assert singles  # the fixture generates choice items, so the checks below run
    for q in singles:
        assert len({o.casefold() for o in q.options}) == len(q.options) == 4
        assert q.options.count(q.answer) == 1
        assert q.options == sorted(q.options, key=lambda t: (t.casefold(), t))


def test_asides_that_only_name_the_term_are_cut_and_its_own_words_stay():
    names = frozenset({"low-rank adaptation", "lora"})
    assert without_asides(names, "A fine-tuning method (LoRA) that trains two small matrices.") == "A fine-tuning method that trains two small matrices."
    assert without_asides(frozenset({"bfloat16", "bf16"}), "A 16-bit format. Also written BF16.") == "A 16-bit format."
    cache = Term(term="Cache", definition="A small, fast memory. Caches keep recent data.")
    assert without_asides(frozenset({"cache"}), cache.definition) == cache.definition  # the leak check drops it instead


def test_term_slugs_are_ascii_ids():
    assert [slug(t) for t in ("Low-Rank Adaptation", "bfloat16", "Über Cache (L2)", "∑")] == ["low-rank-adaptation", "bfloat16", "uber-cache-l2", ""]


def test_cloze_gaps_hints_terms_numbers_and_code_spans(demo):
    generation = generate(demo)
    ids = _by_id(generation)
    hint = ids["gen-cloze-1.2-hint-c1"]
    assert hint.question.stem == "*Four more terms*. Fill in the gap:\n\nA _____ (what part?) is a small piece of a machine."
    assert (hint.question.type, hint.question.answer, tuple(hint.question.accept)) == ("short_answer", "widget", ("widget", "Widget")[:1])
    assert ids["gen-cloze-1.2-two-numbers-c2"].question.stem.endswith("Gizmos spin and _____ mesh.")
    assert tuple(ids["gen-cloze-1.2-two-numbers-c1"].question.accept) == ("Gizmos", "Gizmo")  # the term's own name too
    assert ("gen-cloze-1.2-same-number-twice-c1", "several_gaps") in {(d.id, d.reason) for d in generation.dropped}  # one idea per gap
    assert "`_____`" in ids["gen-cloze-1.2-in-code-c1"].question.stem


def test_the_gap_reads_as_a_line_not_as_emphasis(demo):
    stem = _by_id(generate(demo))["gen-cloze-1.2-in-code-c1"].question.stem
    assert to_plain(stem) == "Four more terms. Fill in the gap: Call _____ to start, then read the_docs_."
    assert "\\_" not in stem


def test_near_duplicate_of_an_authored_question_is_dropped_with_its_score(make_sources):
    generation = generate(_content(make_sources("valid", "terms_four", "near_duplicate_question")))
    dropped = {d.id: d for d in generation.dropped}
    widget = dropped["gen-which-term-widget"]
    assert (widget.reason, widget.duplicate_of) == ("near_duplicate", "1.3-q1") and widget.score >= NEAR_DUPLICATE
    assert "gen-which-term-widget" not in _by_id(generation)
    assert "gen-which-term-sprocket" in _by_id(generation)  # same template, other term: not a repeat


def test_a_generated_id_an_author_took_is_dropped(make_sources):
    generation = generate(_content(make_sources("valid", "terms_four", "near_duplicate_question")))
    gizmo = next(d for d in generation.dropped if d.id == "gen-which-term-gizmo")
    assert (gizmo.reason, gizmo.duplicate_of, gizmo.score) == ("id_taken", "gen-which-term-gizmo", None)


def test_no_sample_question_comes_near_the_threshold(sample):
    from rapidfuzz import fuzz, process, utils

    authored_texts = {s.question.id: comparable_text(s.question) for s in authored(sample)}
    scores = [process.extractOne(comparable_text(s.question), authored_texts, scorer=fuzz.ratio, processor=utils.default_process)[1]
              for s in generate(sample).questions]
    assert max(scores) < NEAR_DUPLICATE - 10  # the threshold is not tuned to the sample's edge


def test_generation_is_deterministic(sample):
    first, second = generate(sample), generate(sample)
    assert [s.question for s in first.questions] == [s.question for s in second.questions]


def test_distractor_pick_ignores_pool_order_and_skips_the_answer():
    pool = [Candidate(t, "") for t in ("Alpha", "Beta", "Gamma", "Delta", "Epsilon", "beta")]
    picked = [c.text for c in pick_distractors("q1", Candidate("Gamma", ""), [pool], 3)]
    assert picked == [c.text for c in pick_distractors("q1", Candidate("Gamma", ""), [list(reversed(pool))], 3)]
    assert len(picked) == 3 and "Gamma" not in picked and len({p.casefold() for p in picked}) == 3
    assert pick_distractors("q1", Candidate("Gamma", ""), [[Candidate("Alpha", ""), Candidate("gamma", "")], [Candidate("Beta", "")]], 3) is None  # too few


def test_authors_switch_rules_off_and_suppress_single_items(make_sources):
    sources = make_sources("valid", "terms_four")
    exam = sources / "demo" / "exam.yaml"
    exam.write_text(exam.read_text(encoding="utf-8") + "generated:\n  rules: [which-term, cloze]\n  suppress: [gen-which-term-widget]\n", encoding="utf-8")
    generation = generate(_content(sources))
    assert {s.rule for s in generation.questions} == {"which-term", "cloze"}  # matching switched off
    assert ("gen-which-term-widget", "suppressed") in {(d.id, d.reason) for d in generation.dropped}
    assert "gen-which-term-widget" not in _by_id(generation)


def test_validate_verbose_lists_generated_and_dropped_items_with_reasons(run_cli, make_sources):
    result = run_cli("validate", "--sources", str(make_sources("valid", "terms_four")), "--today", TODAY, "--verbose")
    assert result.code == 0, result.err
    lines = result.err.splitlines()
    assert "demo: generated gen-which-term-widget (which-term, single, drill)" in lines
    assert "demo: dropped gen-which-term-sprocket (which-term): item-reused-options: the same 4 options as gen-which-term-widget" in lines
    assert any(line.startswith("demo: dropped gen-which-term-cache (which-term): stem_contains_answer: the stem shows 'Caches', 'cache'") for line in lines), result.err
    assert "demo: dropped gen-cloze-1.2-same-number-twice-c1 (cloze): several_gaps: several gaps share the cloze number: one idea per gap" in lines
    assert not [line for line in result.lines if "generated" in line or "dropped" in line]  # stdout: problems only
