"""Which terms get a definition -> term card: only those whose definition stands without the term.

A definition -> term card asks "which term is this?" over the definition. It answers itself when:
- the definition holds a form of the term in its own words (asides that only name the term, "(LoRA)",
  "Also written BF16.", are cut first, as the front hides them): the term's names and words sharing a
  stem with them ("recomputing" for "Activation recomputation"), or a word that is part of the term's
  words ("16-bit floating-point" in "bfloat16", "extra compute" in "recomputation", "loss-scaling" in
  "GradScaler": `_parts` splits the term at case changes and digits). Masking such a word leaves a
  sentence whose blank only the term fits ("moving data to and from _____", "two small matrices of
  _____ r"): a cloze of the term itself, not a definition;
- the titles shown with the card (its deck name, its context line: pipeline/check/shown_with.py) name
  the term ("Transfer learning" in "6.3 Transfer learning for performance").
Such a term keeps only its term -> definition card (`one_way_reason` says why; `validate -v` lists them).
"""

from __future__ import annotations

import re

from pipeline.check import shown_with
from pipeline.practice import term_forms
from pipeline.practice.terms import without_asides
from pipeline.text import word_forms
from pipeline.text.plaintext import to_plain
from schema.models import Term

_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_WORD = re.compile(r"[A-Za-z]+|[0-9]+")
PART_LETTERS = 4  # a shared piece shorter than this ("bit", "the") says nothing of the term


def _parts(term: str) -> list[str]:
    """The term's words split at case changes and digits: "GradScaler" -> grad, scaler; "bfloat16" -> bfloat, 16."""
    return [p.casefold() for word in re.findall(r"[A-Za-z0-9]+", term) for p in (_CAMEL.findall(word) or [word])]


def _piece_of(word: str, parts: list[str]) -> bool:
    """Whether a word of the definition is a piece of one of the term's words, or holds one, by stem."""
    low = word.casefold()
    if low.isdigit():
        return low in parts
    root = word_forms.stem(low)
    if low in word_forms.STOP or len(root) < PART_LETTERS:
        return False
    return any(root in part or (len(part) >= PART_LETTERS and word_forms.stem(part) in low) for part in parts)


def forms_in(term: Term) -> list[str]:
    """The words of the definition, its asides cut, that are forms of the term (see the module's rules)."""
    names = term_forms.forms(term.term, term.definition)
    text = to_plain(without_asides(names, term.definition))
    found = dict.fromkeys(word_forms.found(word_forms.answer_forms(term.term, *names, *term.accept), text))
    parts = _parts(term.term)
    found |= dict.fromkeys(w for w in _WORD.findall(text) if _piece_of(w, parts))
    return list(found)


titles = shown_with.titles  # what a deck's cards are shown with, for the renderer (which never imports the checks)


def phrases(term: Term) -> tuple[str, ...]:
    """What a learner would answer for the term: its name, acronyms and expansions, declared synonyms."""
    return (term.term, *sorted(term_forms.forms(term.term, term.definition)), *term.accept)


def one_way_reason(term: Term, context: tuple[shown_with.Shown, ...]) -> str | None:
    """Why the term gets no definition -> term card, or None when its definition stands without it."""
    found = shown_with.leaks(phrases(term), context)
    if found:
        return f"{shown_with.describe(found)}: the card's deck and context line would name it"
    words = forms_in(term)
    if words:
        return f"its definition holds {', '.join(map(repr, words))}, a form of the term: the definition -> term card would answer itself"
    return None


def one_way_terms(content) -> list[tuple[str, str, str]]:
    """(objective id, term, reason) for every term of the exam that keeps only its term -> definition card."""
    found = []
    for file in (f for f in content.objective_files if not f.partial):
        context = shown_with.context_of(content, file)
        for _, term in file.indexed("terms"):
            reason = one_way_reason(term, context)
            if reason:
                found.append((file.objective.id, term.term, reason))
    return found
