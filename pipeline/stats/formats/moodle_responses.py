"""Moodle's quiz Responses report, downloaded as CSV (Quiz > Results > Responses > Download).

The layout follows Moodle 4.2+: `mod/quiz/classes/local/reports/attempts_report.php` (`add_user_columns`:
"Last name", "First name", then the site's identity fields such as "Email address"; `add_state_column`:
"State"; `add_time_columns`: "Started on", "Completed", "Time taken"; `add_grade_columns`:
"Grade/10.00"), and `mod/quiz/report/responses/report.php` with its strings: per slot N, "Question N"
(the question summary), "Response N" (the response summary) and "Right answer N", each when ticked.
A response summary is the chosen option's text (several joined by "; "), "True"/"False", the typed
text, or a matching question's "prompt -> answer" pairs joined by "; ".

Columns are found by their role (`pipeline.stats.columns`): older Moodle versions and several English
language packs write "Surname" for "Last name", "Status" for "State", "Started" for "Started on",
"Email" for "Email address".

A slot's question comes from its "Question N" summary (it starts with the stem), else from a Statistics
download of the same quiz given in the same run ("Q#" and the "<id>: ..." question name). The report
gives no marks per question: answers are scored against the sources' key (`pipeline.stats.responses`).
Only finished attempts count; a learner's attempts are told apart by "Started on".
"""

from __future__ import annotations

import re

from pipeline.stats import responses, timeparse
from pipeline.stats.columns import Column, find
from pipeline.stats.csvfile import Record, Table
from pipeline.stats.match import ItemKey, QuestionIndex
from pipeline.stats.records import Answer, Parsed, Unmatched

NAME = "moodle-responses"
TITLE = "Moodle's quiz Responses report"
_SLOT = re.compile(r"^(Question|Response|Right answer) (\d+)$", re.IGNORECASE)
COLUMNS = (
    Column("the learner's last name", ("Last name", "Surname", "Family name")),
    Column("the learner's first name", ("First name", "Given name"), required=False),
    Column("the attempt's state", ("State", "Status")),
    Column("the attempt's start", ("Started on", "Started"), required=False),
    Column("the responses", ("Response 1",), pattern=r"Response \d+"),
    Column("email address", ("Email address", "Email"), required=False),
    Column("ID number", ("ID number", "Identity number"), required=False),
    Column("username", ("Username", "User name"), required=False),
)
_LEARNER_ROLES = ("email address", "ID number", "username")  # a learner's identity, the first one filled in
_NAME_ROLES = ("the learner's last name", "the learner's first name")
_STATE, _STARTED = "the attempt's state", "the attempt's start"
_FINISHED = "finished"
_BLANK = ("", "-")


def detects(header: list[str]) -> bool:
    return find(header, COLUMNS).complete


def _columns(header: list[str]) -> tuple[dict[str, int], dict[int, dict[str, int]]]:
    """Each role's column, and per slot its Question / Response / Right answer columns."""
    named, slots = find(header, COLUMNS).at, {}
    for i, h in enumerate(header):
        m = _SLOT.match(h.strip())
        if m:
            slots.setdefault(int(m.group(2)), {})[m.group(1).capitalize()] = i
    return named, slots


def parse(table: Table, index: QuestionIndex, context: dict) -> Parsed:
    parsed = Parsed(table.path, NAME, rows=len(table.records) - 1)
    named, slots = _columns(table.header)
    slot_ids = _slot_ids(table, slots, index, context, parsed)
    for record in table.records[1:]:
        _row(table, record, named, slots, slot_ids, index, parsed)
    return parsed


def _slot_ids(table: Table, slots: dict, index: QuestionIndex, context: dict, parsed: Parsed) -> dict[int, str | None]:
    """Slots without a "Question N" column take their question from a Statistics download, if one came."""
    known = context.get("moodle_slots", {})
    found = {}
    for slot, cols in sorted(slots.items()):
        if "Response" not in cols:
            continue
        found[slot] = known.get(str(slot))
        if "Question" not in cols and found[slot] is None:
            parsed.unmatched.append(Unmatched(table.path, 1, f"slot {slot}: no 'Question {slot}' column to tell its question, and no Statistics "
                                                            "download of this quiz in this run; download the Responses report with "
                                                            "'Question text' ticked, or add the Statistics download"))
    return found


def _learner(record: Record, named: dict[str, int]) -> str:
    for role in _LEARNER_ROLES:
        if role in named and record.cells[named[role]].strip():
            return record.cells[named[role]].strip()
    return " ".join(record.cells[named[r]].strip() for r in _NAME_ROLES if r in named)


def _row(table, record, named, slots, slot_ids, index, parsed) -> None:
    if len(record.cells) != len(table.header):
        raise table.error(record, f"has {len(record.cells)} fields, expected {len(table.header)} as in the header (a Responses report cut short?)")
    learner = _learner(record, named)
    state = record.cells[named[_STATE]].strip()
    if not learner.strip():
        parsed.unmatched.append(Unmatched(table.path, record.number, "no learner (empty name and identity fields)"))
        return
    if state.casefold() != _FINISHED:
        parsed.unmatched.append(Unmatched(table.path, record.number, f"attempt not finished (State: {state or 'empty'}): only finished attempts count"))
        return
    started = timeparse.moodle(record.cells[named[_STARTED]]) if _STARTED in named else None
    for slot, qid in slot_ids.items():
        cols = slots[slot]
        if "Question" in cols:
            qid, why = index.by_stem(record.cells[cols["Question"]])
            if qid is None:
                parsed.unmatched.append(Unmatched(table.path, record.number, f"slot {slot}: {why}"))
                continue
        if qid is None:
            continue
        _answer(table, record, learner, started, index.keys[qid], record.cells[cols["Response"]].strip(), parsed)


def _answer(table, record, learner, started, key: ItemKey, summary: str, parsed: Parsed) -> None:
    try:
        choices, score = _score(key, summary)
    except responses.ResponseError as exc:
        parsed.unmatched.append(Unmatched(table.path, record.number, str(exc)))
        return
    if score is None:
        parsed.unmatched.append(Unmatched(table.path, record.number, f"{key.id} is an essay: a Responses report gives no mark to count"))
        return
    parsed.answers.append(Answer(learner, key.id, summary, choices, score, started, record.number, table.path.name))


def _score(key: ItemKey, summary: str) -> tuple[tuple[str, ...] | None, float | None]:
    """(options chosen, score) from a response summary; "-" (no response) scores 0, an essay None."""
    if summary in _BLANK:  # no response in a finished attempt: no marks (an essay's mark is never in this report)
        return (() if key.is_choice else None), 0.0 if key.auto else None
    if key.is_choice:
        chosen = responses.choices_from_summary(key, summary, "; ")
        return chosen, responses.score(key, list(chosen))
    if key.shape == "pairs":  # qtype_match: "prompt -> answer; prompt -> answer"
        pairs = [part.partition(" -> ")[::2] for part in summary.split("; ")]
        return None, responses.score(key, responses.pairs_from_texts(key, pairs))
    if key.shape == "sequence":
        return None, responses.score(key, responses.order_from_texts(key, summary.split("; ")))
    return None, responses.score(key, summary)
