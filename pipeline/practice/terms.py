"""The exam's key terms as the generator sees them: where each lives, its kind, its forms, and its
definition cleaned of the words that name it.

A definition may name its term on the side: "A fine-tuning method (LoRA) that ...", "... Also written
BF16." Such asides are cut from a question's text rather than blanked ("(_____)", "Also written _____."
read as placeholders and teach nothing): a parenthesis that holds only forms of the term goes, and so
does a sentence that says nothing else (two words or fewer besides the forms). A mention inside the
definition's own words stays, and the leak checks then leave the term without a question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.load.content import ExamContent, ObjectiveFile
from pipeline.practice import kinds, term_forms
from pipeline.text import word_forms
from pipeline.text.plaintext import to_plain
from pipeline.text.slug import slug
from schema.models import Term

ASIDE_WORDS = 2  # a sentence with no more words than this besides the term's forms only names the term
_PAREN = re.compile(r"\s*\(([^()]*)\)")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")


@dataclass(frozen=True)
class SourcedTerm:
    term: Term
    file: ObjectiveFile
    index: int
    slug: str
    section: int
    kind: str  # declared, else read from the definition (pipeline/practice/kinds.py)
    names: frozenset[str]  # the term, its acronyms and expansions, lower-cased (pipeline/practice/term_forms.py)
    forms: word_forms.AnswerForms  # those and the declared synonyms, by word stem
    text: str  # the definition in one line, asides naming the term cut (Markdown)

    @property
    def objective_id(self) -> str:
        return self.file.objective.id

    @property
    def plain(self) -> str:
        return to_plain(self.text)

    def named_in(self, text: str) -> bool:
        """Whether `text` names this term whole (any of its names, a plural ending allowed)."""
        return term_forms.mentions(self.names, text)

    def leaks_into(self, text: str) -> list[str]:
        """The words of `text` that are forms of this term: any word sharing a stem with one of its names."""
        return word_forms.found(self.forms, text)


def without_asides(names: frozenset[str], definition: str) -> str:
    """The definition in one line, with parentheses and sentences that only name the term cut."""
    text = " ".join(definition.split())

    def paren(match: re.Match[str]) -> str:
        inside = term_forms.mask(names, match[1], " ")
        return "" if term_forms.mentions(names, match[1]) and not term_forms.words_left(inside, " ") else match[0]

    text = _PAREN.sub(paren, text)
    kept = [s for s in _SENTENCE.split(text) if not (term_forms.mentions(names, s) and term_forms.words_left(term_forms.mask(names, s, " "), " ") <= ASIDE_WORDS)]
    return " ".join(kept).strip()


def same_thing(a: SourcedTerm, b: SourcedTerm) -> bool:
    """Whether two terms name one thing (an acronym and its expansion): never one as the other's distractor."""
    return bool(a.names & b.names) or term_forms.abbreviates(a.term.term, b.term.term) or term_forms.abbreviates(b.term.term, a.term.term)


def sourced_terms(content: ExamContent, notes: list[str] | None = None) -> list[SourcedTerm]:
    """Every term of the exam that can have an id, in outline and source order."""
    found = []
    for file in content.objective_files:
        for index, term in file.indexed("terms"):
            if not slug(term.term):
                if notes is not None:
                    notes.append(f"no question for the term {term.term!r} in {file.objective.id}: it has no letter or digit to make an id from")
                continue
            names = term_forms.forms(term.term, term.definition)
            forms = word_forms.answer_forms(term.term, *names, *term.accept)
            found.append(SourcedTerm(term, file, index, slug(term.term), int(file.objective.id.split(".")[0]),
                                     kinds.kind_of(term.definition, term.kind), names, forms, without_asides(names, term.definition)))
    return found
