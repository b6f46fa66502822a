"""Moodle's quiz Statistics report, downloaded as CSV (Quiz > Results > Statistics > Download, either the
question statistics or "Download full report").

The layout follows `mod/quiz/report/statistics/report.php`, `statistics_table.php` and
`statistics_question_table.php` (Moodle 4.x) with `lang/en/quiz_statistics.php`: the CSV writer puts the
tables one after the other, each with its own header row and no title. First "Quiz information" (one
header row starting "Quiz name", one row of values); then the "Quiz structure analysis" ("Q#",
"Question type", "Question name", "Attempts", "Facility index", "Standard deviation", "Random guess
score", "Intended weight", "Effective weight", "Discrimination index", "Discriminative efficiency",
percentages written "71.23%"); in the full report, then one "Analysis of responses" table per question
that can analyse responses, in slot order ("Response" or "Model response", "Partial credit", "Count" or
"Count Try 1", ..., "Frequency").

Questions are found by name (the Moodle export names them "<id>: <stem>"). Moodle's discrimination
index is the correlation of the item's marks with the rest of the quiz: kept as the item-rest
point-biserial. An analysis table is kept as option counts when every response in it is an option of
its question; the strongest learners' choice is not in this download (it has no per-learner rows).
"""

from __future__ import annotations

from pipeline.shapes.grading import normalise
from pipeline.stats.columns import Column, canonical, find
from pipeline.stats.csvfile import Record, Table
from pipeline.stats.match import QuestionIndex
from pipeline.stats.records import Parsed, PlatformItem, Unmatched

NAME = "moodle-statistics"
TITLE = "Moodle's quiz Statistics report"
STRUCTURE = ("Q#", "Question name", "Attempts")
NO_ANALYSIS = frozenset({"Essay", "Description", "Random"})


COLUMNS = tuple(Column(name, (name,)) for name in STRUCTURE) + (Column("Facility index", ("Facility index",), required=False),)


def detects(header: list[str]) -> bool:
    return bool(header) and (canonical(header[0]) == "quiz name" or find(header, COLUMNS).complete)


def _percent(text: str) -> float | None:
    text = text.strip().rstrip("%").strip()
    try:
        return float(text.replace(",", ".")) / 100.0
    except ValueError:
        return None


def _blocks(table: Table) -> list[tuple[Record, list[Record]]]:
    """The tables of the file: each header row with the rows under it."""
    blocks: list[tuple[Record, list[Record]]] = []
    for record in table.records:
        cells = [c.strip() for c in record.cells]
        if cells[0] == "Quiz name" or cells[0] == "Q#" or ("Partial credit" in cells and "Frequency" in cells):
            blocks.append((record, []))
        elif blocks:
            blocks[-1][1].append(record)
    return blocks


def parse(table: Table, index: QuestionIndex, context: dict) -> Parsed:
    parsed = Parsed(table.path, NAME, rows=len(table.records))
    blocks = _blocks(table)
    structure = next((b for b in blocks if b[0].cells[0].strip() == "Q#"), None)
    if structure is None:
        raise table.error(table.records[0], "has no 'Quiz structure analysis' table (a header row starting Q#, Question type, Question name); "
                                            "download the Statistics report after some attempts were graded")
    items = _structure(table, structure, index, parsed)
    analyses = [b for b in blocks if "Frequency" in [c.strip() for c in b[0].cells]]
    counts = _option_counts(table, analyses, items, index, parsed)
    for qid, (n, facility, discrimination, _) in items.items():
        parsed.items.append(PlatformItem(qid, n, facility, discrimination, counts.get(qid), None, NAME))
    context.setdefault("moodle_slots", {}).update(parsed.slots)
    return parsed


def _cells(record: Record, col: dict[str, int]):
    """A reader of the record's cells by column name ("" for a column the row lacks)."""
    def cell(name: str) -> str:
        at = col.get(canonical(name))
        return record.cells[at].strip() if at is not None and at < len(record.cells) else ""

    return cell


def _structure(table: Table, block, index: QuestionIndex, parsed: Parsed) -> dict[str, tuple]:
    header, rows = block
    col = {canonical(h): i for i, h in enumerate(header.cells)}
    items: dict[str, tuple] = {}
    for record in rows:
        cell = _cells(record, col)
        qid, why = index.by_name(cell("Question name"))
        if qid is None:
            parsed.unmatched.append(Unmatched(table.path, record.number, f"Q# {cell('Q#') or '?'}: {why}"))
            continue
        try:
            n = int(cell("Attempts") or 0)
        except ValueError:
            raise table.error(record, f"Attempts: expected a whole number, got {cell('Attempts')!r}") from None
        if cell("Q#").isdigit():
            parsed.slots[cell("Q#")] = qid
        items[qid] = (n, _percent(cell("Facility index")), _percent(cell("Discrimination index")), cell("Question type"))
    return items


def _option_counts(table: Table, analyses, items: dict[str, tuple], index: QuestionIndex, parsed: Parsed) -> dict[str, dict[str, int]]:
    """The k-th analysis table belongs to the k-th question that has one (the report writes them in slot order)."""
    owners = [qid for qid, (_, _, _, qtype) in items.items() if qtype not in NO_ANALYSIS]
    counts = {}
    for (header, rows), qid in zip(analyses, owners, strict=False):
        found = _counts(header, rows, index.keys[qid])
        if found is None:
            parsed.unmatched.append(Unmatched(table.path, header.number, f"the response analysis here is not one of {qid}'s options; its counts are left out"))
        else:
            counts[qid] = found
    return counts


def _counts(header: Record, rows: list[Record], key) -> dict[str, int] | None:
    names = [h.strip() for h in header.cells]
    text_col = names.index("Response") if "Response" in names else names.index("Model response") if "Model response" in names else None
    count_col = names.index("Count") if "Count" in names else names.index("Count Try 1") if "Count Try 1" in names else None
    if text_col is None or count_col is None or not key.is_choice:
        return None
    counts = {o.id: 0 for o in key.options}
    for record in rows:
        option = key.by_text.get(normalise(record.cells[text_col]))
        if option is None or not record.cells[count_col].strip().isdigit():
            return None
        counts[option] += int(record.cells[count_col])
    return counts
