"""What a learner sees with an item, and whether it gives the item's answer away.

An item is never read alone: the site prints it under its objective's page heading ("6.2 Hyperparameter
tuning") and the section's crumbs, and a card sits in the deck "NCA-GENM::6 Performance
Optimization::6.2 Hyperparameter tuning" with the context line "NCA-GENM · 6.2 Hyperparameter tuning".
A fill-in whose key is "hyperparameter" answers itself there. So the titles an item is shown with are
part of the item:

- a generated drill whose answer they show is dropped (`context_shows_answer`, pipeline/practice/gate.py):
  a drill cannot be moved off its objective's page or out of its deck, so it is not made;
- an authored question or cloze mark whose answer they show is warned about (`item-answer-in-context`,
  at the answer's line: pipeline/check/answer_in_context.py): the author rewords the item or hides another phrase;
- a term whose name they show keeps only its term -> definition card (pipeline/render/anki/deck_notes.py).

What counts as the answer (`answer_phrases`): a fill-in's accepted answers, a number (with its unit),
the right option of a choice item when it is a term (four words at most: a sentence-long option is not
recalled word for word, and its whole text is still looked for), a term's names. Pairs, orderings and
true/false statements show every answer by design and are not looked at.

What counts as showing it (`shown_in`): a run of words of the title that the one grading rule
(pipeline/shapes/grading.py: case, hyphens, plurals, articles, number words) reads as the answer, or whose
words share their stems with the answer's words one for one ("Hyperparameters", "recomputing
activations"). One shared word of a longer answer is not the answer shown: "Training optimization" does
not give away "Mixed-precision training".
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.load.content import ExamContent, ObjectiveFile
from pipeline.questions.numeric import written
from pipeline.shapes.grading import NORMALISE, answer_key, normalise
from pipeline.text import cloze, word_forms
from pipeline.text.plaintext import to_plain

TERM_WORDS = cloze.MAX_GAP_WORDS  # an option of at most this many words is a term a learner recalls


@dataclass(frozen=True)
class Shown:
    """One text shown with every item of an objective, and where a learner sees it."""

    where: str  # "the objective's title (page heading, deck name, card context line)"
    text: str  # plain


def titles(objective_heading: str, section_heading: str | None, exam_code: str, exam_title: str) -> tuple[Shown, ...]:
    """The titles shown with an objective's items ("6.2 Hyperparameter tuning", "6 Performance Optimization", ...)."""
    shown = [Shown("the objective's title (page heading, deck name, card context line)", objective_heading)]
    if section_heading is not None:
        shown.append(Shown("the section's title (page crumbs, deck name)", section_heading))
    shown.append(Shown("the exam's code and title (site header, deck name, card context line)", f"{exam_code} {exam_title}"))
    return tuple(shown)


def context_of(content: ExamContent, file: ObjectiveFile) -> tuple[Shown, ...]:
    """The titles shown with the items of `file`: the objective's heading, the section's, the exam's code and title."""
    objective, exam = file.objective, content.exam
    section = content.section_of(objective)
    return titles(f"{objective.id} {objective.title}", f"{section.number} {section.title}" if section else None, exam.code, exam.title)


def answer_phrases(question) -> tuple[str, ...]:
    """What a learner would recall as the question's answer (see the module's rules); empty when none."""
    kind = question.type
    if kind == "short_answer":
        return tuple(question.accept)
    if kind == "numeric":
        number = written(question.answer)
        return (number, f"{number} {question.unit}") if question.unit else (number,)
    if kind in ("single", "multiple"):
        right = question.answer if isinstance(question.answer, list) else [question.answer]
        return tuple(o for o in right if len(to_plain(o).split()) <= TERM_WORDS)
    return ()


def _stems(words: list[str]) -> tuple[str, ...]:
    return tuple(word_forms.stem(w) for w in words)


def shown_in(phrases: tuple[str, ...] | frozenset[str], text: str) -> list[str]:
    """The runs of words of `text` that are one of `phrases` under the grading rule or word for word by
    stem, in order, each once."""
    keys = {answer_key(p) for p in phrases} - {""}
    stems = {_stems(normalise(to_plain(p)).split()) for p in phrases} - {()}
    if not keys:
        return []
    words = normalise(to_plain(text), NORMALISE).split()
    # "hyper parameter" is two words of the text for a one-word answer: look one word further
    longest = max(len(normalise(to_plain(p)).split()) for p in phrases) + 1
    hits: dict[str, None] = {}
    for size in range(1, longest + 1):
        for start in range(len(words) - size + 1):
            run = words[start : start + size]
            if answer_key(" ".join(run)) in keys or _stems(run) in stems:
                hits[" ".join(run)] = None
    return list(hits)


def leaks(phrases: tuple[str, ...] | frozenset[str], context: tuple[Shown, ...]) -> list[tuple[Shown, list[str]]]:
    """Each text of `context` that shows one of `phrases`, with the words that do."""
    found = [(shown, shown_in(phrases, shown.text)) for shown in context] if phrases else []
    return [(shown, words) for shown, words in found if words]


def describe(found: list[tuple[Shown, list[str]]]) -> str:
    """"the objective's title (...) '6.2 Hyperparameter tuning' shows 'hyperparameter'"."""
    return "; ".join(f"{shown.where} {shown.text!r} shows {', '.join(map(repr, words))}" for shown, words in found)
