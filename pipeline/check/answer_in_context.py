"""The lint on authored items against what is shown with them (`item-answer-in-context`): a question or
cloze mark whose answer its objective's or section's title shows (page heading, deck name, card context
line), warned at the answer's line. What counts as shown is pipeline/check/shown_with.py's rule, the
one the generator's gate drops drills by.
"""

from __future__ import annotations

from pipeline.check.shown_with import answer_phrases, context_of, describe, leaks
from pipeline.diagnostics import Report
from pipeline.load.content import ExamContent
from pipeline.text import cloze
from pipeline.text.plaintext import to_plain

CODE = "item-answer-in-context"


def _question_path(question) -> tuple:
    return ("accept",) if question.type == "short_answer" and question.accept else ("answer",)


def mark_phrases(point, number: int) -> tuple[str, ...]:
    """A cloze mark's answer: its phrase and the answers the key point declares for it."""
    hidden = [to_plain(m.answer) for m in cloze.marks(point.text) if m.number == number]
    return (*hidden, *point.accept.get(f"c{number}", []))


def lint(content: ExamContent, report: Report) -> None:
    """A warning at the answer's line for every authored question or cloze mark whose answer the titles
    shown with it give away."""
    for file in (f for f in content.objective_files if not f.partial):
        context = context_of(content, file)
        for i, question in file.indexed("questions"):
            if question.variants is not None:  # a template: the stress test judges what its variants show
                continue
            found = leaks(answer_phrases(question), context)
            if found:
                path = ("questions", i, *_question_path(question))
                report.warning(file.path, file.position(path), f"questions[{i}]: the answer is shown with the question: {describe(found)}; "
                               "reword the question so another word is asked for, or move it to an objective whose titles do not name it", CODE)
        for i, point in file.indexed("key_points"):
            for number in sorted({m.number for m in cloze.marks(point.text)}):
                found = leaks(mark_phrases(point, number), context)
                if found:
                    report.warning(file.path, file.position(("key_points", i, "text")), f"key_points[{i}].text: cloze c{number}'s hidden answer "
                                   f"is shown with its card: {describe(found)}; hide another phrase", CODE)
