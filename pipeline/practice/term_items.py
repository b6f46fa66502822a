"""Drafts made from key terms: which-term (pick the term a definition defines) and matching (definitions
to terms). Each draft names what the gate must check it for (pipeline/practice/gate.py).

which-term: the definition, asides naming the term cut (pipeline/practice/terms.py), is the stem; the
options are the term and three distractors of the same kind (pipeline/practice/kinds.py), from the
term's objective, then its section, closest definitions first (pipeline/practice/distractors.py), never
one that is the answer under another name, one the stem names, or one holding a form of the answer other
than its head noun: "Pipeline parallelism" is a fair distractor for "Tensor parallelism". A word every
option holds tells no option apart, so the stem may show it ("a form of model parallelism" over four
kinds of parallelism). Fewer than three such terms: no item.

matching: the terms of one objective whose definitions do not name them, three or four to a question
(a card holds four pairs at most), plus at least one more answer than prompts (a term of the same
objective, else of its section, of a kind among the question's where there is one), so the last prompt
is never found by elimination. No prompt names another answer of its question.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass, replace

from pydantic import ValidationError

from pipeline.practice.distractors import Candidate, pick_distractors
from pipeline.practice.gate import Shown
from pipeline.practice.term_forms import words_left
from pipeline.practice.terms import SourcedTerm, same_thing
from pipeline.questions import QuestionBase, make_question
from pipeline.text import cloze, word_forms
from schema.bank import DroppedQuestion, Rule

CHOICES = 4  # the right answer and three distractors
MIN_WORDS = 6  # a definition with fewer words identifies nothing
MATCH_MIN, MATCH_MAX = 3, 4  # pairs of a matching question: a card shows four at most


@dataclass(frozen=True)
class TermDraft:
    """A question made from terms, what it came from, and what the gate must check in it."""

    question: QuestionBase
    origin: SourcedTerm
    rule: Rule
    shown: tuple[Shown, ...]


def dropped(qid: str, rule: Rule, reason: str) -> DroppedQuestion:
    return DroppedQuestion(id=qid, rule=rule, reason=reason, duplicate_of=None, score=None)


def made(rule: Rule, **fields: object) -> QuestionBase | DroppedQuestion:
    """The question, validated like an authored one; the dropped record when the schema refuses a text of it
    (generated text is held to the authors' limits, so every output can take it)."""
    try:
        return make_question(**fields)
    except ValidationError as exc:
        reason = "too_long" if all(e["type"] == "string_too_long" for e in exc.errors()) else "invalid"
        return dropped(str(fields["id"]), rule, reason)


def _head(term: SourcedTerm) -> frozenset[str]:
    """The stem of the term's last word (its head noun: "parallelism" of "Tensor parallelism")."""
    return word_forms.content_stems(term.term.term.split()[-1])


def _candidate(term: SourcedTerm, answer: SourcedTerm, stem: str) -> Candidate:
    shares = (word_forms.content_stems(term.term.term) & answer.forms.stems) - _head(answer)
    excluded = same_thing(term, answer) or term.named_in(stem) or bool(shares) or term.kind != answer.kind
    return Candidate(term.term.term, term.plain, excluded)


def _telling(forms: word_forms.AnswerForms, options: list[str]) -> word_forms.AnswerForms:
    """The answer's forms less the stems every option holds: those tell no option apart."""
    common = frozenset.intersection(*(word_forms.content_stems(o) for o in options))
    return replace(forms, stems=forms.stems - common)


def which_term(term: SourcedTerm, objective: list[SourcedTerm], section: Iterable[SourcedTerm],
               avoid: Collection[frozenset[str]] = ()) -> TermDraft | DroppedQuestion:
    """One "which term is defined as follows?" draft; `avoid`: option sets (case-folded) earlier items of the
    objective offer, which this one must not offer again (pipeline/practice/distractors.py)."""
    qid = f"gen-which-term-{term.slug}"
    if words_left(term.plain) < MIN_WORDS:
        return dropped(qid, "which-term", "definition_too_short")

    def candidates(pool: Iterable[SourcedTerm]) -> Iterator[Candidate]:
        return (_candidate(t, term, term.plain) for t in pool)

    # lazy pools: the section is looked at only when the objective holds too few
    wrong = pick_distractors(qid, Candidate(term.term.term, term.plain), (candidates(pool) for pool in (objective, section)), CHOICES - 1, avoid)
    if wrong is None:
        return dropped(qid, "which-term", "too_few_distractors")
    right = term.term.term
    question = made(
        "which-term", id=qid, type="single", stem=f"Which term is defined as follows?\n\n> {term.text}",
        options=sorted([right, *(c.text for c in wrong)], key=lambda t: (t.casefold(), t)), answer=right,
        explanation=f"**{right}**: {' '.join(term.term.definition.split())}", difficulty="easy", key_points=points_naming(term),
    )
    if isinstance(question, DroppedQuestion):
        return question
    # an option may share the answer's head noun (chosen so); the stem may show what every option holds
    headless = replace(term.forms, stems=term.forms.stems - _head(term))
    shown = (Shown("stem", term.text, _telling(term.forms, [right, *(c.text for c in wrong)])), *(Shown("option", c.text, headless) for c in wrong))
    return TermDraft(question, term, "which-term", shown)


def points_naming(term: SourcedTerm) -> list[str]:
    """The key points of the term's objective that mention it (any name): their citations back the question."""
    return [p.id for p in term.file.objective.key_points if term.named_in(cloze.strip(p.text))]


# --- matching -----------------------------------------------------------------------------------


def _usable(term: SourcedTerm) -> bool:
    return words_left(term.plain) >= MIN_WORDS and not term.leaks_into(term.plain)


def _fits(term: SourcedTerm, group: list[SourcedTerm]) -> bool:
    """No prompt of the group names the term, and the term's prompt names no answer of the group."""
    return not any(same_thing(term, t) or term.named_in(t.plain) or t.named_in(term.plain) for t in group)


def matching_groups(objective: list[SourcedTerm]) -> list[list[SourcedTerm]]:
    """The objective's usable terms in groups of MATCH_MIN..MATCH_MAX, in source order, none naming another."""
    groups: list[list[SourcedTerm]] = []
    for term in (t for t in objective if _usable(t)):
        home = next((g for g in groups if len(g) < MATCH_MAX and _fits(term, g)), None)
        if home is None:
            groups.append([term])
        else:
            home.append(term)
    return [g for g in groups if len(g) >= MATCH_MIN]


def _extra(group: list[SourcedTerm], pools: list[list[SourcedTerm]]) -> SourcedTerm | None:
    """A wrong answer that no prompt names: a term of a kind among the group's (from the objective, then
    the section), else any term of the objective, then of the section."""
    group_kinds = {t.kind for t in group}
    fitting = [t for pool in pools for t in pool if t not in group and _fits(t, group)]
    return next((t for t in fitting if t.kind in group_kinds), fitting[0] if fitting else None)


def matching(group: list[SourcedTerm], objective: list[SourcedTerm], section: list[SourcedTerm]) -> TermDraft | DroppedQuestion:
    first = group[0]
    qid = f"gen-matching-{first.slug}"
    extra = _extra(group, [objective, section])
    if extra is None:
        return dropped(qid, "matching", "too_few_distractors")
    question = made(
        "matching", id=qid, type="matching", difficulty="medium", stem="Match each definition with the term it defines. One term is left over.",
        pairs=[{"prompt": t.text, "answer": t.term.term} for t in group], extra_answers=[extra.term.term],
        # the pairs are on the answer side already; what is left to explain is the term that matches nothing
        explanation=f"Each definition is its term's glossary entry. The term left over, **{extra.term.term}**, is: {extra.text}",
    )
    if isinstance(question, DroppedQuestion):
        return question
    shown = tuple(Shown("prompt", t.text, t.forms) for t in group)
    return TermDraft(question, first, "matching", shown)
