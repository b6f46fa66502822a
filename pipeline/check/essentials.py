"""Essentials that keep what is tested (`essential-drops-tested`): a key point's exam essential must state
every number and glossary term that the questions citing the point test, and its cloze phrases.

The guide's "Exam essentials" box is what a candidate rereads the night before; a bullet that leaves out
the fact a question asks about sends them in without it. What the box prints is pipeline/text/essential.py's
rule (the point's `essential:`, else the whole point without its tables and figures), and this check reads the same text.

What a question tests: the numbers and terms of its key, that is its answer in words (the keyed options, the
numeric answer with its unit, a short answer's model answer, a matching's pairs, an ordering's items), and for a
true/false question keyed true its stem (the statement that is keyed). A term is a glossary term of the exam
or one of its `accept:` forms, found case-insensitively with hyphens and spaces alike and a plural ending
allowed; a number is compared by value ("30%" and "about 30 %", "1,048" and "1048"), with the figure rules of
`number-unbacked` (pipeline/check/numbers.py: no versions, no bit widths, nothing in code).

Only a fact the key point itself states counts: the essential can only leave out what the point has. A number
a question computes (a numeric answer worked out from its stem) is not in the point, and is not the essential's
to keep; a question testing what its key point never says is an item writer's matter, not this check's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal

from pipeline.check import numbers
from pipeline.diagnostics import Report
from pipeline.load.content import ExamContent
from pipeline.load.schema_errors import field_label
from pipeline.questions import type_of
from pipeline.text import cloze
from pipeline.text.essential import printed
from pipeline.text.plaintext import to_plain

CODE = "essential-drops-tested"


@dataclass(frozen=True)
class Fact:
    """One tested fact: a number (by value) or a phrase (any of its forms), with what a message calls it."""

    label: str
    value: Decimal | None = None
    forms: tuple[str, ...] = ()

    def in_text(self, text: str) -> bool:
        if self.value is not None:
            return self.value in _values(text)
        return any(_phrase(form).search(_folded(text)) for form in self.forms)


def _folded(text: str) -> str:
    """Plain text, lower-cased, hyphens as spaces: "Memory-bound" and "memory bound" read alike."""
    return " ".join(re.sub(r"[-‐–]", " ", to_plain(cloze.strip(text))).casefold().split())


def _phrase(form: str) -> re.Pattern[str]:
    words = _folded(form).split()
    return re.compile(r"(?<!\w)" + r"\s+".join(map(re.escape, words)) + r"(?:e?s)?(?!\w)")


def _values(text: str) -> set[Decimal]:
    return {v for f in numbers.figures(text) if (v := numbers.value_of(f)) is not None} | numbers.formula_values(text)


def key_text(question) -> str:
    """What the question keys, in words; a true/false question keyed true keys its stem's statement."""
    words = type_of(question.type).answer_words(question)
    return f"{words} {question.stem}" if question.type == "true_false" and question.answer is True else words


def facts_of(key: str, glossary: list[Fact]) -> list[Fact]:
    """The numbers and glossary terms in a key."""
    found = [Fact(figure, value=v) for figure in numbers.figures(key) if (v := numbers.value_of(figure)) is not None]
    return found + [term for term in glossary if term.in_text(key)]


def cloze_facts(point) -> list[Fact]:
    """What a point's cloze cards test: each hidden phrase (a number by value), with its declared answers."""
    facts = []
    for mark in cloze.marks(point.text):
        phrase = to_plain(mark.answer).strip()
        value = numbers.value_of(phrase) if numbers.figures(phrase) == [phrase] else None
        others = tuple(point.accept.get(f"c{mark.number}", []))
        facts.append(Fact(phrase, value=value) if value is not None else Fact(phrase, forms=(phrase, *others)))
    return facts


def dropped(point, tests: list[tuple[str, str]], glossary: list[Fact]) -> dict[str, list[str]]:
    """{fact: [what tests it]} for the facts that `tests` ((question id, key text)) and the point's cloze marks
    test, that the point states and its printed essential does not."""
    essential = printed(point.essential, point.text)
    found: dict[str, list[str]] = {}
    candidates = [(f, qid) for qid, key in tests for f in facts_of(key, glossary)]
    candidates += [(f, "its cloze card") for f in cloze_facts(point)]
    for fact, by in candidates:
        if fact.in_text(point.text) and not fact.in_text(essential):
            found.setdefault(fact.label, [])
            if by not in found[fact.label]:
                found[fact.label].append(by)
    return found


def _citing(content: ExamContent) -> dict[str, list[tuple[str, str]]]:
    """Key point id -> (question id, key text) of every authored question that cites it."""
    tests: dict[str, list[tuple[str, str]]] = {}
    for _objective, question in content.questions():
        for point_id in dict.fromkeys(question.key_points):
            tests.setdefault(point_id, []).append((question.id, key_text(question)))
    return tests


def _points(content: ExamContent) -> Iterator[tuple]:
    for file in content.objective_files:
        if not file.partial:
            for i, point in file.indexed("key_points"):
                yield file, i, point


def check(content: ExamContent, report: Report) -> None:
    """A warning at the essential (or the point's text when it has none) naming each tested fact it leaves out."""
    glossary = [Fact(t.term, forms=(t.term, *t.accept)) for _o, t in content.terms()]
    tests = _citing(content)
    for file, i, point in _points(content):
        found = dropped(point, tests.get(point.id, []), glossary)
        if not found:
            continue
        path = ("key_points", i, "essential" if point.essential is not None else "text")
        listed = "; ".join(f"{label!r} (tested by {', '.join(by)})" for label, by in found.items())
        fix = ("add it to the essential" if point.essential is not None
               else "the whole point stands in without its tables and figures: write an `essential:` that keeps it")
        report.warning(file.path, file.position(path), f"{field_label(path)}: the exam essential leaves out what is tested: {listed}; {fix}", CODE)
