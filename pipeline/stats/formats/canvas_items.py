"""Canvas's Item Analysis CSV (classic quizzes: Quiz Statistics > Item Analysis).

The layout follows canvas-lms `app/models/quizzes/quiz_statistics/item_analysis.rb` (`to_csv`) and
`item_analysis/item.rb`: "Question Id" (Canvas's own id), "Question Title" (the question text with tags
stripped, despite the name), "Answered Student Count", ..., "Difficulty Index" (the share answering
right), "Alpha", "Point Biserial of Correct", then "Point Biserial of Distractor 2", 3, ... Only
multiple-choice and true/false questions are analysed; the distractors come in the question's answer
order with the correct answer moved first, and the Canvas export keeps the view's order, so distractor
k is the k-th wrong option as the view shows them. Canvas's point-biserial is against the whole score,
the item included (not corrected). There are no option counts in this file.
"""

from __future__ import annotations

from pipeline.stats.columns import Column, canonical, find
from pipeline.stats.csvfile import Table
from pipeline.stats.match import QuestionIndex
from pipeline.stats.records import Parsed, PlatformItem, Unmatched

NAME = "canvas-item-analysis"
TITLE = "Canvas's item analysis"
FIRST = ["Question Id", "Question Title", "Answered Student Count"]


COLUMNS = tuple(Column(name.lower(), (name,)) for name in (*FIRST, "Difficulty Index", "Point Biserial of Correct"))


def detects(header: list[str]) -> bool:
    return [canonical(h) for h in header[:3]] == [canonical(h) for h in FIRST]


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def parse(table: Table, index: QuestionIndex, context: dict) -> Parsed:
    parsed = Parsed(table.path, NAME, rows=len(table.records) - 1)
    found = find(table.header, COLUMNS).at
    col = {name: found[name.lower()] for name in (*FIRST, "Difficulty Index", "Point Biserial of Correct") if name.lower() in found}
    col |= {f"Point Biserial of Distractor {h.split()[-1]}": i for i, h in enumerate(table.header)
            if canonical(h).startswith("point biserial of distractor ") and h.split()[-1].isdigit()}
    for name in ("Difficulty Index", "Point Biserial of Correct"):
        if name not in col:
            raise table.error(table.records[0], f"has no '{name}' column; expected Canvas's item analysis header ({', '.join(FIRST)}, ...)")
    distractors = sorted((int(h.rsplit(" ", 1)[1]), i) for h, i in col.items() if h.startswith("Point Biserial of Distractor "))
    for record in table.records[1:]:
        if len(record.cells) != len(table.header):
            raise table.error(record, f"has {len(record.cells)} fields, expected {len(table.header)} as in the header")
        qid, why = index.by_stem(record.cells[col["Question Title"]])
        if qid is None:
            parsed.unmatched.append(Unmatched(table.path, record.number, f"Question Id {record.cells[0].strip()}: {why}"))
            continue
        n = _number(record.cells[col["Answered Student Count"]])
        if n is None:
            raise table.error(record, f"Answered Student Count: expected a number, got {record.cells[col['Answered Student Count']]!r}")
        key = index.keys[qid]
        wrong = [o.id for o in key.options if not o.correct]
        pbis = {o.id: v for o in key.options if o.correct for v in [_number(record.cells[col["Point Biserial of Correct"]])] if v is not None}
        for (_, i), option in zip(distractors, wrong, strict=False):
            value = _number(record.cells[i])
            if value is not None:
                pbis[option] = value
        parsed.items.append(PlatformItem(qid, int(n), _number(record.cells[col["Difficulty Index"]]),
                                         _number(record.cells[col["Point Biserial of Correct"]]), None, pbis or None, NAME))
    return parsed
