"""One gate for every generated item: what an authored item is held to, and what a generated one must also
never do. A draft that raises anything is dropped, and the first thing it raised is its reason in coverage.

In order (a draft's reason is the first thing it raised):
1. the question type's own checks (answer among the options, distinct options...) and grading the
   answer key against itself (a fill-in must accept its own model answer, a single-choice item must
   have exactly one correct option): `grading`;
2. the leak checks: every text a learner sees before answering (the stem, each option, each matching
   prompt) against the forms of the answer it must not give away, compared by word stem
   (pipeline/text/word_forms.py): `stem_contains_answer`, `option_contains_answer`,
   `prompt_contains_answer`;
3. no placeholder blank outside a fill-in's own gap: `placeholder_blank`;
4. the item-writing lint (pipeline/check/item_lint.py), exactly as it runs on authored questions: its
   code is the reason (item-long-answer, item-answer-in-stem, ...);
5. what is shown with the item (pipeline/check/shown_with.py: its objective's and section's titles, in the
   page heading, the deck name and the card's context line) against every form of the answer:
   `context_shows_answer`. A drill lives on its objective's page and in its deck, so it is dropped rather
   than shown elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.check import shown_with
from pipeline.check.item_lint import question_findings
from pipeline.practice import answers
from pipeline.practice.term_forms import BLANK
from pipeline.questions import QuestionBase, type_of
from pipeline.text import word_forms
from pipeline.text.plaintext import to_plain


@dataclass(frozen=True)
class Shown:
    """A text a learner sees before answering, what it is (stem, option, prompt) and the answer it must not give away."""

    where: str  # "stem", "option" or "prompt"
    text: str  # Markdown
    answer: word_forms.AnswerForms


@dataclass(frozen=True)
class Finding:
    reason: str  # the drop reason: a lint code or one of the gate's own
    detail: str  # a sentence for `validate --verbose`


def findings(question: QuestionBase, shown: tuple[Shown, ...], gaps: int = 0, context: tuple[shown_with.Shown, ...] = ()) -> list[Finding]:
    """Everything wrong with a generated question; empty when it may join the bank. `gaps`: how many
    blanks the stem may hold (a fill-in's own); `context`: the titles it is shown with."""
    found = [Finding("grading", problem.message) for problem in type_of(question.type).check(question)]
    found += _grading(question)
    for item in shown:
        words = word_forms.found(item.answer, to_plain(item.text))
        if words:
            found.append(Finding(f"{item.where}_contains_answer", f"the {item.where} shows {', '.join(map(repr, words))}, a form of the answer"))
    blanks = sum(to_plain(item.text).count(BLANK) for item in shown if item.where in ("stem", "prompt"))
    if blanks > gaps or any(BLANK in to_plain(item.text) for item in shown if item.where == "option"):
        found.append(Finding("placeholder_blank", f"{BLANK} shown where no gap is asked for"))
    found += [Finding(code, message) for _, message, code in question_findings(question)]
    return found + _in_context(question, shown, context)


def _in_context(question: QuestionBase, shown: tuple[Shown, ...], context: tuple[shown_with.Shown, ...]) -> list[Finding]:
    """The titles shown with the drill, against its answer and every other name of it (acronym, expansion, `accept:`)."""
    phrases = frozenset(shown_with.answer_phrases(question)).union(*(item.answer.phrases for item in shown if item.where != "option"))
    found = shown_with.leaks(phrases, context)
    return [Finding("context_shows_answer", f"{shown_with.describe(found)}, a form of the answer")] if found else []


def _grading(q: QuestionBase) -> list[Finding]:
    """The answer key graded by the one grading rule (pipeline/shapes/grading.py through answers.accepts)."""
    accepted = tuple(getattr(q, "accept", ()))
    if q.type == "short_answer" and (not accepted or not answers.accepts(accepted, to_plain(str(q.answer)))):
        return [Finding("grading", "the fill-in does not accept its own model answer")]
    if q.type == "single" and sum(o == q.answer for o in q.options) != 1:
        return [Finding("grading", "a single-choice item needs exactly one correct option")]
    return []
