"""How much of each rule's drafts the gate kept, and what an author can declare when it is little.

A rule that keeps less than a quarter of its drafts (`QUARTER`) is usually stopped by one thing the
author can fix at once: terms whose kinds, read from their definitions, leave each kind with too few
members for three distractors (declare `kind:`), definitions that name their term, titles that name the
answer. `validate` prints one line per such rule, saying what most of its drops were and what to do
(pipeline/cli/common.py); `validate -v` lists every drop.
"""

from __future__ import annotations

from collections import Counter

from pipeline.practice.generate import Generation
from pipeline.practice.terms import SourcedTerm

QUARTER = 0.25
KINDS_SHOWN = 4  # the kinds named in the line: the commonest, so it stays one line
ADVICE = {
    "stem_contains_answer": "their definitions (or key points) name the answer in some form: reword them without it",
    "option_contains_answer": "their distractors hold a form of the answer: name terms so that they differ",
    "context_shows_answer": "the objective's or section's title names the answer: hide another phrase",
    "definition_too_short": "their definitions are too short to identify a term: write a sentence",
    "gap_not_a_term_or_number": "their gaps hide neither a term nor a number: hide the term or number itself",
}


def _kinds_line(dropped_ids: list[str], terms: list[SourcedTerm]) -> str:
    by_id = {f"gen-which-term-{t.slug}": t for t in terms}
    kinds = Counter(by_id[i].kind for i in dropped_ids if i in by_id)
    named = ", ".join(f"{kind!r} ({n})" for kind, n in kinds.most_common(KINDS_SHOWN))
    return (f"their kinds read from the definitions ({named}) leave fewer than four terms of one kind in an objective and its "
            "section; declare `kind:` on the terms that are the same kind of thing (e.g. `kind: technique`, `kind: metric`)")


def thin_rules(generation: Generation, terms: list[SourcedTerm]) -> list[str]:
    """One sentence per rule that kept less than a quarter of its drafts (suppressed ones not counted)."""
    kept = Counter(s.rule for s in generation.questions)
    dropped = [d for d in generation.dropped if d.reason != "suppressed"]
    made = kept + Counter(d.rule for d in dropped)
    lines = []
    for rule, total in sorted(made.items()):
        if kept[rule] >= QUARTER * total:
            continue
        reasons = Counter(d.reason for d in dropped if d.rule == rule)
        reason, count = reasons.most_common(1)[0]
        if reason == "too_few_distractors" and rule == "which-term":
            advice = _kinds_line([d.id for d in dropped if d.rule == rule and d.reason == reason], terms)
        else:
            advice = ADVICE.get(reason, "see `validate -v` for each drop")
        lines.append(f"{rule} kept {kept[rule]} of {total} drills; {count} dropped as {reason}: {advice}")
    return lines
