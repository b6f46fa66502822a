"""Item-writing lint: warnings for authored questions that test the reading rather than the knowing.

The reference is Haladyna, Downing & Rodriguez (2002), "A Review of Multiple-Choice Item-Writing
Guidelines for Classroom Assessment", Applied Measurement in Education 15(3), 309-333: its 31
guidelines (G1-G31). Each warning names the guideline it follows and has a stable code, so a project can
raise or silence it (Report.warning(..., code)):

| code | guideline | finds |
| --- | --- | --- |
| item-long-answer | G24 keep the length of choices about equal | the correct option is the longest, at least 1.5x the wrong ones' mean |
| item-all-none-above | G25/G26 none/all of the above | an option "all of the above" or "none of the above" |
| item-negative-stem | G17 word the stem positively; if negative, capitalised and bold | NOT, EXCEPT, LEAST... neither in capitals nor emphasised |
| item-overlapping-options | G22 keep choices independent, not overlapping | one option's words all inside another's |
| item-answer-in-stem | G28b clang associations | single choice: a word of the stem repeated in the correct option and in no wrong one |
| item-tf-all-true | G20 vary the location of the right answer (the true/false form of it) | an objective's true/false questions (2+) all true |
| cloze-gap-long | (cloze) a gap a learner can recall | a cloze mark hiding more than four words |
| cloze-gap-given | (cards) no front shows its answer | the sentences a cloze card shows hold a form of the gap's answer (by word stem) |
| item-points-elsewhere | (cards) a card stands alone | a stem or explanation pointing "above", "below", at "the example" or "the CPU run" |
| numeric-precision | (numbers) grade what is asked | a stem asking for a precision ("to two decimal places") that the tolerance does not enforce |
| item-one-wrong-option, item-option-contradicts-stem, item-mixed-option-kinds, item-numbers-out-of-order, item-reused-options | G4, G18, G21, G23, G28f, G29 | the distractors (pipeline/check/distractor_lint.py) |

Warnings only: a flagged item may be right as it is, and the author decides.
"""

from __future__ import annotations

import re
from decimal import Decimal

from rapidfuzz import fuzz

from pipeline.check import distractor_lint
from pipeline.diagnostics import Report
from pipeline.load.content import ObjectiveFile
from pipeline.load.schema_errors import field_label
from pipeline.load.yamlsource import PathKey
from pipeline.questions.numeric import written
from pipeline.text import cloze, word_forms
from pipeline.text.plaintext import to_plain
from schema.models import Question

ITEM_WRITING_GUIDE = distractor_lint.ITEM_WRITING_GUIDE  # the one source of the G-numbered rules
MAX_GAP_WORDS = cloze.MAX_GAP_WORDS
_ALL_NONE = re.compile(r"\b(all|none|both|neither) of the (above|options|answers|these|choices)\b", re.IGNORECASE)
_NEGATIVE = re.compile(r"(?<![\w*])(not|except|least|never|cannot|incorrect|untrue)(?![\w*])", re.IGNORECASE)
_ELSEWHERE = re.compile(r"\b(see|shown|as|in) (the )?(example|figure|table|code|listing|question)? ?(above|below)\b|\bthe (previous|next|preceding|following) (question|example|figure|section)\b"
                        r"|\b(?:in|from) the (?:(?:CPU|GPU|worked|earlier|last) )?(?:run|example|listing|snippet)\b", re.IGNORECASE)
_STOP = frozenset(["which", "what", "when", "where", "that", "this", "with", "from", "into", "than", "then", "they", "their", "there", "these", "those", "about", "would", "could", "should", "does", "have", "been", "being", "were", "most", "more", "other", "some", "such", "only", "also", "each", "your"])


def _warn(report: Report, file: ObjectiveFile, path: PathKey, message: str, code: str) -> None:
    report.warning(file.path, file.position(path), f"{field_label(path)}: {message}", code)


def _words(text: str) -> set[str]:
    """Stems of the words of 4+ letters: "batches" and "batching" are one clue (pipeline/text/word_forms.py)."""
    return {word_forms.stem(w) for w in re.findall(r"[A-Za-z][A-Za-z0-9]{3,}", to_plain(text)) if w.casefold() not in _STOP}


def _right_wrong(q: Question) -> tuple[list[int], list[int]]:
    right = set(q.answer) if isinstance(q.answer, list) else {q.answer}
    return [i for i, o in enumerate(q.options) if o in right], [i for i, o in enumerate(q.options) if o not in right]


def long_answer(q: Question) -> list[tuple[PathKey, str]]:
    right, wrong = _right_wrong(q)
    if not right or not wrong:
        return []
    lengths = [len(to_plain(o)) for o in q.options]
    longest = max(range(len(lengths)), key=lengths.__getitem__)
    mean_wrong = sum(lengths[i] for i in wrong) / len(wrong)
    if longest in right and lengths[longest] >= 1.5 * mean_wrong and lengths[longest] - mean_wrong >= 10:
        return [(("options", longest), f"the correct option is {lengths[longest]} characters, the wrong ones {mean_wrong:.0f} on average; a test-wise candidate picks the longest ({ITEM_WRITING_GUIDE}, G24: keep choices about equal in length)")]
    return []


def all_none_above(q: Question) -> list[tuple[PathKey, str]]:
    return [(("options", i), f"{_ALL_NONE.search(o)[0]!r} ({ITEM_WRITING_GUIDE}, G25/G26): rewrite as independent options; if it stays, set shuffle: false so 'above' stays true")
            for i, o in enumerate(q.options) if _ALL_NONE.search(o)]


def negative_stem(q: Question) -> list[tuple[PathKey, str]]:
    for m in _NEGATIVE.finditer(q.stem):
        if not m[1].isupper():
            return [(("stem",), f"negative stem {m[1]!r} without emphasis ({ITEM_WRITING_GUIDE}, G17): word the stem positively, or write **{m[1].upper()}**")]
    return []


def overlapping(q: Question) -> list[tuple[PathKey, str]]:
    texts = [to_plain(o) for o in q.options]
    for i, a in enumerate(texts):
        for j, b in enumerate(texts):
            if i < j and a.casefold() != b.casefold() and fuzz.token_set_ratio(a, b, processor=str.casefold) == 100:  # equal: an error already
                return [(("options", j), f"options {a!r} and {b!r} overlap: one's words are all in the other ({ITEM_WRITING_GUIDE}, G22: keep choices independent)")]
    return []


def answer_in_stem(q: Question) -> list[tuple[PathKey, str]]:
    """Single choice only: with several correct options a shared word is weak evidence of a clue. Words
    are compared by stem, so an inflected or derived form of a word counts as the word."""
    if q.type != "single":
        return []
    right, wrong = _right_wrong(q)
    stem = _words(q.stem)
    in_wrong = set().union(*(_words(q.options[i]) for i in wrong)) if wrong else set()
    for i in right:
        clue = sorted((_words(q.options[i]) & stem) - in_wrong)
        if clue:
            word = next(w for w in re.findall(r"[A-Za-z][A-Za-z0-9]{3,}", to_plain(q.options[i])) if word_forms.stem(w) == clue[0])
            return [(("options", i), f"the correct option repeats {word!r} (or a form of it) from the stem and no wrong option does ({ITEM_WRITING_GUIDE}, G28b: clang association)")]
    return []


CHOICE_RULES = (long_answer, all_none_above, negative_stem, overlapping, answer_in_stem)
CODES = {long_answer: "item-long-answer", all_none_above: "item-all-none-above", negative_stem: "item-negative-stem",
         overlapping: "item-overlapping-options", answer_in_stem: "item-answer-in-stem"}


_PLACES = re.compile(r"\b(one|two|three|four|five|[1-9]) decimal places?\b", re.IGNORECASE)
_FIGURES = re.compile(r"\b(one|two|three|four|five|[1-9]) significant (?:figures?|digits?)\b", re.IGNORECASE)
_NEAREST = re.compile(r"\bto the nearest (whole number|integer|tenth|hundredth|thousandth)\b", re.IGNORECASE)
_SMALL = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
_NEAREST_PLACES = {"whole number": 0, "integer": 0, "tenth": 1, "hundredth": 2, "thousandth": 3}


def _asked_unit(q: Question) -> tuple[Decimal, str] | None:
    """The last digit a numeric stem asks for, as a place value, with the words that ask it."""
    if m := _PLACES.search(q.stem):
        return Decimal(1).scaleb(-int(_SMALL.get(m[1].casefold(), m[1]))), m[0]
    if m := _NEAREST.search(q.stem):
        return Decimal(1).scaleb(-_NEAREST_PLACES[m[1].casefold()]), m[0]
    if (m := _FIGURES.search(q.stem)) and q.answer:
        figures = int(_SMALL.get(m[1].casefold(), m[1]))
        return Decimal(1).scaleb(Decimal(str(abs(q.answer))).adjusted() - figures + 1), m[0]
    return None


def numeric_precision(q: Question) -> list[tuple[PathKey, str, str]]:
    """A stem asking for "two decimal places" grades what it asks only when the tolerance is at most half
    of the last place asked (3.95 to two places takes 3.945 to 3.955): a wider one accepts answers the stem
    calls wrong ("4" and "3.9" for 3.95 ± 0.05)."""
    asked = _asked_unit(q)
    if q.type != "numeric" or asked is None:
        return []
    unit, words = asked
    answer = Decimal(written(q.answer))
    tolerance = abs(answer) * Decimal(q.tolerance.removesuffix("%")) / 100 if isinstance(q.tolerance, str) else Decimal(written(q.tolerance))
    if tolerance <= unit / 2:
        return []
    coarse = [written(float(v)) for v in (answer - tolerance, answer + tolerance) if v.quantize(unit) != answer.quantize(unit)]
    shown = f" (it accepts {' and '.join(coarse)})" if coarse else ""
    return [(("tolerance",), f"the stem asks for {words!r} but a tolerance of {written(float(tolerance))} accepts answers "
                             f"that round otherwise{shown}; set tolerance: {written(float(unit / 2))} (half the last place asked)", "numeric-precision")]


def question_findings(q: Question) -> list[tuple[PathKey, str, str]]:
    """Every item-writing warning of one question, as (path below the question, message, code): the one
    list authored questions (as warnings) and generated ones (as reasons to drop them) are held to."""
    found = []
    if q.type in ("single", "multiple") and q.options:
        found += [(path, message, CODES[rule]) for rule in CHOICE_RULES for path, message in rule(q)]
    return found + distractor_lint.choice_findings(q) + distractor_lint.matching_findings(q) + points_elsewhere(q) + numeric_precision(q)


def lint_objective(file: ObjectiveFile, report: Report) -> None:
    """Every item-writing warning of one valid objective file."""
    questions = [(i, q) for i, q in file.indexed("questions") if q.variants is None]  # templates: the stress test judges their variants
    for i, q in questions:
        for path, message, code in question_findings(q):
            _warn(report, file, ("questions", i, *path), message, code)
    for i, message, code in distractor_lint.reused_options(questions):
        _warn(report, file, ("questions", i, "options"), message, code)
    tf = [(i, q) for i, q in questions if q.type == "true_false"]
    if len(tf) >= 2 and all(q.answer is True for _, q in tf):
        _warn(report, file, ("questions", tf[-1][0], "answer"), f"all {len(tf)} true/false questions of this objective are true: a candidate who answers 'true' throughout scores full marks; make some false ({ITEM_WRITING_GUIDE}, G20)", "item-tf-all-true")
    for i, point in file.indexed("key_points"):
        for mark in cloze.marks(point.text):
            words = len(to_plain(mark.answer).split())
            if words > MAX_GAP_WORDS:
                _warn(report, file, ("key_points", i, "text"), f"cloze c{mark.number} hides {words} words; a gap of at most {MAX_GAP_WORDS} words is one a learner can recall: hide the key term or number only", "cloze-gap-long")
        for number in sorted({m.number for m in cloze.marks(point.text)}):
            given = _gap_given(point.text, number)
            if given:
                _warn(report, file, ("key_points", i, "text"), f"cloze c{number}: the card's text shows {', '.join(map(repr, given))}, a form of the hidden answer; reword it or hide another phrase", "cloze-gap-given")


def points_elsewhere(q: Question) -> list[tuple[PathKey, str, str]]:
    found = []
    for name in ("stem", "explanation"):
        match = _ELSEWHERE.search(getattr(q, name))
        if match:
            found.append(((name,), f"{match[0]!r} points at content a card or a shuffled practice exam does not show next to it; say what is meant in the question itself", "item-points-elsewhere"))
    return found


def _gap_given(text: str, number: int) -> list[str]:
    """The words of a cloze card's shown text (its sentences, other marks as their phrases, this one hidden)
    that share a stem with the hidden phrase."""
    hidden = " ".join(to_plain(m.answer) for m in cloze.marks(text) if m.number == number)
    shown = cloze.CLOZE.sub(lambda m: " " if int(m["number"]) == number else m["answer"], cloze.sentences_with(text, number))
    return word_forms.found(word_forms.answer_forms(hidden), to_plain(shown))
