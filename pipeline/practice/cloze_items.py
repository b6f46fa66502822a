"""Fill-ins made from cloze marks: one idea per gap, nothing around it that gives the gap away.

A key point's cloze number becomes a short-answer question when:
- it has one gap, of one to four words (`gap_too_long`, `several_gaps` otherwise);
- the gap holds an exam term (any of its names) or a number (`gap_not_a_term_or_number`): a clause
  ("extra compute for less memory") tests wording, not knowing;
- the text shown, the sentence holding the gap and the sentences it leans on (a pronoun brings the one
  before: pipeline/text/cloze.py), holds no form of the answer, compared by stem, and no gloss follows
  the gap in parentheses (`gap_paraphrased`): "multiples of _____ ... multiples of 4" or "_____ (16-bit
  floating point)" answer themselves. The sentence is shown under the objective's title, or the
  section's when the objective's names the answer ("Transfer learning for performance").
Its accepted answers are the gap's phrase (and without a leading article), and when the gap is a term,
every name of the term (acronym, expansion) and its declared synonyms (`accept:` on the term), plus
those the key point declares for that gap (`accept: {c1: [...]}`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.load.content import ExamContent, ObjectiveFile
from pipeline.practice import answers, term_forms
from pipeline.practice.gate import Shown
from pipeline.practice.term_items import dropped, made
from pipeline.practice.terms import SourcedTerm
from pipeline.questions import QuestionBase
from pipeline.text import cloze, word_forms
from pipeline.text.plaintext import to_plain
from schema.bank import DroppedQuestion
from schema.models import KeyPoint

MAX_GAP_WORDS = cloze.MAX_GAP_WORDS


@dataclass(frozen=True)
class ClozeDraft:
    question: QuestionBase  # a short_answer whose `accept` lists the accepted answers
    file: ObjectiveFile
    index: int  # the key point's position in its file
    shown: tuple[Shown, ...]


def _blank(mark: cloze.ClozeMark) -> str:
    return f"{term_forms.BLANK} ({mark.hint})" if mark.hint else term_forms.BLANK


def _with_gap(text: str, number: int) -> str:
    """`text` with the mark numbered `number` blanked and every other mark shown as its phrase."""
    out, at = [], 0
    for mark in cloze.marks(text):
        out += [text[at : mark.start], _blank(mark) if mark.number == number else mark.answer]
        at = mark.end
    return "".join(out + [text[at:]])


def _term_of(phrase: str, terms: list[SourcedTerm]) -> SourcedTerm | None:
    """The exam term the gap's phrase is (any of its names, a plural ending allowed), if any."""
    plain = to_plain(phrase)
    return next((t for t in terms if term_forms.pattern(t.names).fullmatch(plain)), None)


def _whole(name: str, term: str) -> bool:
    """Whether a name stands for the whole term: an acronym of it, or as many words ("key-value cache" for
    "KV cache", not "key-value" alone)."""
    return name != term.casefold() and (term_forms.abbreviates(name, term) or len(name.split()) >= len(term.split()))


def _accepted(phrase: str, term: SourcedTerm | None, declared: list[str]) -> tuple[str, ...]:
    names = [term.term.term, *sorted(n for n in term.names if _whole(n, term.term.term)), *term.term.accept] if term else []
    seen: dict[str, str] = {}
    for variant in (*answers.accepted(to_plain(phrase)), *names, *declared):
        seen.setdefault(answers.normalise(variant), variant)
    return tuple(seen.values())


def cloze_question(point: KeyPoint, number: int, file: ObjectiveFile, index: int, terms: list[SourcedTerm],
                   headings: tuple[str, ...]) -> ClozeDraft | DroppedQuestion:
    qid = f"gen-cloze-{point.id}-c{number}"
    marks = [m for m in cloze.marks(point.text) if m.number == number]
    if len(marks) > 1:
        return dropped(qid, "cloze", "several_gaps")
    phrase = to_plain(marks[0].answer)
    if not 1 <= len(phrase.split()) <= MAX_GAP_WORDS:
        return dropped(qid, "cloze", "gap_too_long")
    term = _term_of(marks[0].answer, terms)
    sentence = _with_gap(cloze.sentences_with(point.text, number), number)
    forms = term.forms if term else word_forms.answer_forms(phrase)
    if word_forms.found(forms, to_plain(sentence)) or (re.search(re.escape(term_forms.BLANK) + r"\s*\(", sentence) and not marks[0].hint):
        return dropped(qid, "cloze", "gap_paraphrased")
    if term is None and not word_forms.numbers(phrase):
        return dropped(qid, "cloze", "gap_not_a_term_or_number")
    # the heading that tells what the sentence is about: the objective's title, else the section's
    heading = next((h for h in headings if not word_forms.found(forms, h)), None)
    if heading is None:
        return dropped(qid, "cloze", "gap_paraphrased")
    question = made(
        "cloze", id=qid, type="short_answer", difficulty="medium", stem=f"*{heading}*. Fill in the gap:\n\n{sentence}",
        answer=marks[0].answer, explanation=cloze.strip(cloze.sentences_with(point.text, number, lean=False)), key_points=[point.id],
        accept=list(_accepted(marks[0].answer, term, point.accept.get(f"c{number}", []))),
    )
    if isinstance(question, DroppedQuestion):
        return question
    return ClozeDraft(question, file, index, (Shown("stem", question.stem, forms),))


def cloze_questions(content: ExamContent, terms: list[SourcedTerm]) -> list[ClozeDraft | DroppedQuestion]:
    drafts: list[ClozeDraft | DroppedQuestion] = []
    for file in content.objective_files:
        section = content.section_of(file.objective)
        headings = (file.objective.title, *((section.title,) if section else ()))
        for index, point in file.indexed("key_points"):
            for number in sorted({m.number for m in cloze.marks(point.text)}):
                drafts.append(cloze_question(point, number, file, index, terms, headings))
    return drafts
