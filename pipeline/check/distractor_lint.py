"""Distractor lint: options a candidate can rule out without knowing the subject.

The other half of the item-writing lint (pipeline/check/item_lint.py, which runs these with its own rules on
authored questions, as warnings, and on generated ones, as reasons to drop them). Guidelines are those of
Haladyna, Downing & Rodriguez (2002):

| code | guideline | finds |
| --- | --- | --- |
| item-one-wrong-option | G18/G29 plausible distractors, as many as you can | a multiple-response item in which every option but one is keyed: spotting the odd one out scores full marks |
| item-option-contradicts-stem | G28f no blatantly absurd options | an option that denies what the stem takes as given ("adds no compute" when the stem asks how much compute it adds; "has no effect"; "Nothing at all") |
| item-mixed-option-kinds | G23 keep choices homogeneous | options of different kinds: numbers beside prose, a code name beside sentences |
| item-numbers-out-of-order | G21 place choices in numerical order | numbers shown out of numerical order (shuffled among prose options, in two units, or written out of order with shuffle: false) |
| item-reused-options | G4 keep items independent of each other | two choice items of one objective offering the same set of options: answering one by elimination answers the other |

Decisions where the guidelines are silent: the reuse rule compares option sets exactly (case and
Markdown aside), since a set sharing all but one option is often a deliberate contrast; a stem that is
itself negative (NOT, EXCEPT...) switches the contradiction rule off, because its options deny things on
purpose; "None" is a fair option for a "how many" stem.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from pipeline.load.yamlsource import PathKey
from pipeline.questions import type_of
from pipeline.shapes.order import number_of
from pipeline.text import word_forms
from pipeline.text.plaintext import to_plain
from schema.models import Question

ITEM_WRITING_GUIDE = "Haladyna, Downing & Rodriguez 2002"
_NEGATION = re.compile(r"\b(?:no|not|nothing|none|never|without|zero|cannot|can't|doesn't|don't|isn't|won't)\b", re.IGNORECASE)
# Whole options that deny everything: "Nothing at all", "No effect", "It makes no difference".
_DENIAL = re.compile(r"^(?:(?:it|this|they)\s+(?:has|have|makes?|does|gives?|costs?)\s+)?(?:nothing(?: at all)?|none(?: at all)?|no (?:effect|difference|change|cost|benefit|impact)(?: at all)?)[.!]?$",
                     re.IGNORECASE)
# What an option can deny without naming a stem word: the stem asks how to choose or what a choice does, the
# option says it has "no effect". ("No cost", "no change" are claims an option may fairly make: not here.)
_EFFECT = frozenset(word_forms.stem(w) for w in ("effect", "difference", "impact"))
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9-]*")
_NEGATIVE_STEM = re.compile(r"\b(?:not|except|least|never|cannot|incorrect|untrue|false)\b", re.IGNORECASE)
_CODE = re.compile(r"^`[^`]+`$")


def _keyed(q: Question) -> set[str]:
    return set(q.answer) if isinstance(q.answer, list) else {q.answer}


def one_wrong_option(q: Question) -> list[tuple[PathKey, str]]:
    """Multiple response with n >= 3 options and n - 1 keyed: the one wrong option is the item."""
    if q.type != "multiple" or len(q.options) < 3:
        return []
    wrong = [i for i, o in enumerate(q.options) if o not in _keyed(q)]
    if len(wrong) != 1:
        return []
    return [(("options", wrong[0]), f"{len(q.options) - 1} of {len(q.options)} options are keyed, so a candidate who spots the one odd option scores full marks "
                                    f"without weighing the others ({ITEM_WRITING_GUIDE}, G18/G29): add wrong options a half-informed candidate would choose, or key fewer")]


def _denied_words(option: str) -> list[str]:
    """The words an option's negation applies to: up to three words after each "no", "not", "without"..."""
    found = []
    for m in _NEGATION.finditer(option):
        found += _WORD.findall(option[m.end():])[:3]
    return found


def contradicts_stem(stem: str, options: Iterable[tuple[PathKey, str]]) -> list[tuple[PathKey, str]]:
    """Options that deny the stem's premise: a denial of a word the stem uses (by word stem), of an effect
    the stem asks about, or a bare "Nothing at all"."""
    plain_stem = to_plain(stem)
    if _NEGATIVE_STEM.search(plain_stem):
        return []
    stems = {word_forms.stem(w) for w in _WORD.findall(plain_stem)} - word_forms.STOP
    counting = re.search(r"\bhow many\b", plain_stem, re.IGNORECASE)
    found = []
    for path, text in options:
        plain = to_plain(text).strip()
        denied = [w for w in _denied_words(plain) if word_forms.stem(w) in stems | _EFFECT and w.casefold() not in word_forms.STOP]
        if (_DENIAL.match(plain) and not counting) or denied:
            if not denied:
                what = "denies that anything happens, which the stem takes as given"
            elif word_forms.stem(denied[0]) in stems:
                what = f"denies {denied[0]!r}, which the stem takes as given"
            else:
                what = f"says the choice has no {denied[0]}, which the stem takes as mattering"
            found.append((path, f"the option {plain!r} {what}; a candidate rules it out from the stem alone ({ITEM_WRITING_GUIDE}, G28f: no blatantly absurd options): "
                                "replace it with a mistake a half-informed candidate would make"))
    return found


def option_contradicts_stem(q: Question) -> list[tuple[PathKey, str]]:
    return contradicts_stem(q.stem, ((("options", i), o) for i, o in enumerate(q.options)))


def kind_of_option(text: str) -> str:
    """"number" ("30%", "2,048", "8 GB"), "code" (one `code` span) or "prose"."""
    plain = text.strip()
    if number_of(to_plain(plain)) is not None:
        return "number"
    if _CODE.match(plain):
        return "code"
    return "prose"


def mixed_kinds(q: Question) -> list[tuple[PathKey, str]]:
    """Options of two or more kinds: the odd kind out (the rarer one; the later option on a tie) is flagged."""
    kinds = [kind_of_option(o) for o in q.options]
    if len(set(kinds)) < 2:
        return []
    count = {k: kinds.count(k) for k in kinds}
    odd = min(range(len(kinds)), key=lambda i: (count[kinds[i]], -i))
    shown = ", ".join(f"{count[k]} {k}" for k in dict.fromkeys(kinds))
    return [(("options", odd), f"the options are of different kinds ({shown}): the {kinds[odd]} {to_plain(q.options[odd])!r} stands out from the rest, "
                               f"and a candidate judges it by its form ({ITEM_WRITING_GUIDE}, G23: keep choices homogeneous); make every option the same kind of answer")]


def numbers_out_of_order(q: Question) -> list[tuple[PathKey, str]]:
    """Two or more number options shown out of numerical order. Options that are all numbers in one unit
    are shown sorted (pipeline/shapes/order.py), so this finds numbers shuffled among other options, in
    different units, or written out of order with `shuffle: false`."""
    (choices,) = type_of(q.type).parts(q)
    by_letter = {o.letter: o for o in choices.options}
    shown = [(o.letter, number_of(to_plain(o.text_md))) for o in choices.options]
    numbers = [(letter, n) for letter, n in shown if n is not None]
    if len(numbers) < 2:
        return []
    units = {unit for _, (_, unit) in numbers}
    values = [value for _, (value, _) in numbers]
    if len(units) == 1 and (values == sorted(values) or values == sorted(values, reverse=True)):
        return []
    at = int(ord(by_letter[numbers[-1][0]].id) - ord("a"))
    order = ", ".join(f"{letter} {to_plain(by_letter[letter].text_md)}" for letter, _ in numbers)
    why = f"in {len(units)} units" if len(units) > 1 else "out of numerical order"
    return [(("options", at), f"the numbers are shown {why} ({order}); a candidate looking for a scale reads them twice ({ITEM_WRITING_GUIDE}, G21): "
                              "make every option a number in one unit (they are then shown in ascending order), or write them in order with shuffle: false")]


QUESTION_RULES = {one_wrong_option: "item-one-wrong-option", option_contradicts_stem: "item-option-contradicts-stem",
                  mixed_kinds: "item-mixed-option-kinds", numbers_out_of_order: "item-numbers-out-of-order"}


def choice_findings(q: Question) -> list[tuple[PathKey, str, str]]:
    """Every distractor warning of one single or multiple choice question, as (path below it, message, code)."""
    if q.type not in ("single", "multiple") or not q.options:
        return []
    return [(path, message, code) for rule, code in QUESTION_RULES.items() for path, message in rule(q)]


def matching_findings(q: Question) -> list[tuple[PathKey, str, str]]:
    """A matching item's answers and extra answers against its stem: "Nothing at all" as the left-over
    answer of "what each trades away" is ruled out at a glance."""
    if q.type != "matching":
        return []
    answers = [(("pairs", i, "answer"), p.answer) for i, p in enumerate(q.pairs or [])]
    answers += [(("extra_answers", i), a) for i, a in enumerate(getattr(q, "extra_answers", None) or [])]
    return [(path, message, "item-option-contradicts-stem") for path, message in contradicts_stem(q.stem, answers)]


def option_set(q: Question) -> frozenset[str] | None:
    """A choice item's options as a set (plain, case-folded), or None for other types and two-option items."""
    if q.type not in ("single", "multiple") or not q.options or len(q.options) < 3:
        return None
    return frozenset(to_plain(o).strip().casefold() for o in q.options)


def reused_options(questions: Iterable[tuple[int, Question]]) -> list[tuple[int, str, str]]:
    """(index, message, code) for each choice item whose option set an earlier item of the objective already offers."""
    seen: dict[frozenset[str], str] = {}
    found = []
    for i, q in questions:
        key = option_set(q)
        if key is None:
            continue
        if key in seen:
            found.append((i, f"the same {len(key)} options as {seen[key]}: answering one by elimination answers the other ({ITEM_WRITING_GUIDE}, G4: keep items independent); "
                             "draw this item's distractors from other mistakes", "item-reused-options"))
        else:
            seen[key] = q.id
    return found
