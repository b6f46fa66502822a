"""Reading an uploaded CSV whole as hostile input: bounded bytes, rows, columns and field sizes, strict UTF-8.

The LMS exports (and the in-memory reference of the long format) are read so; `csvstream` reads record by record
with the same checks and words.

Every record carries its number (the header is row 1) and the physical line it starts on, since a quoted
field may hold line breaks: messages name both. Any problem is a `StatsInputError` naming the file.
"""

from __future__ import annotations

import csv
import gzip
import io
import os
import stat
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import NamedTuple

from pipeline.stats.records import StatsInputError

# The bounds of an LMS export read whole (Moodle, Canvas: a row per learner or per item); the long format is
# read by the engine instead, under its own bounds (`pipeline.stats.intake`).
MAX_BYTES = 64_000_000
MAX_ROWS = 2_000_000
MAX_COLUMNS = 5_000
MAX_FIELD = 100_000  # characters: an essay answer fits, a runaway quote does not


class Record(NamedTuple):
    """One CSV record (a tuple: a file holds a million)."""

    number: int  # 1 = the header
    line: int  # where it starts in the file
    cells: list[str]


@dataclass(frozen=True)
class Table:
    """The file's non-blank records, header first. `rows` are the bare cells (what a big file's parser walks);
    `records` adds each one's number and starting line, worked out on first use (a second pass over the text)."""

    path: Path
    rows: list[list[str]]
    text: str

    @property
    def header(self) -> list[str]:
        return self.rows[0] if self.rows else []

    @cached_property
    def lines(self) -> list[int]:
        """The line each record starts on (a quoted field may hold line breaks)."""
        starts, start = [], 1
        reader = csv.reader(io.StringIO(self.text, newline=""))
        for cells in reader:
            if len(cells) > 1 or (cells and cells[0].strip()):
                starts.append(start)
            start = reader.line_num + 1
        return starts

    @cached_property
    def records(self) -> list[Record]:
        return [Record(n, line, cells) for n, (line, cells) in enumerate(zip(self.lines, self.rows, strict=True), start=1)]

    def error(self, record: Record | int, message: str) -> StatsInputError:
        number = record if isinstance(record, int) else record.number
        return StatsInputError(self.path, number, message, self.lines[number - 1] if 0 < number <= len(self.lines) else None)


def _read_bytes(path: Path) -> bytes:
    try:
        info = os.stat(path)
    except OSError as exc:
        raise StatsInputError(path, 0, f"cannot be read ({exc.strerror or exc})") from None
    if not stat.S_ISREG(info.st_mode):
        raise StatsInputError(path, 0, "is not a regular file; give the CSV file the platform downloaded")
    if info.st_size > MAX_BYTES:
        raise StatsInputError(path, 0, f"is {info.st_size:,} bytes, over the {MAX_BYTES:,}-byte limit; split it by date or by quiz")
    with open(path, "rb") as handle:
        data = handle.read(MAX_BYTES + 1)
    if data[:2] == b"\x1f\x8b":  # gzip: unpacked up to the same bound, so a small bomb stays small
        try:
            with gzip.open(io.BytesIO(data), "rb") as packed:
                data = packed.read(MAX_BYTES + 1)
        except (OSError, EOFError) as exc:
            raise StatsInputError(path, 0, f"is not a readable gzip file ({exc})") from None
    if len(data) > MAX_BYTES:
        raise StatsInputError(path, 0, f"is over the {MAX_BYTES:,}-byte limit; split it by date or by quiz")
    return data


def _decode(path: Path, data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise StatsInputError(path, line, f"is not UTF-8 text (byte {exc.start:,}); download it again as CSV (UTF-8)", line) from None


def read_table(path: Path) -> Table:
    """Every record of the CSV file; blank lines are skipped, as spreadsheet programs write them."""
    text = _decode(path, _read_bytes(path))
    if "\0" in text:
        line = text[: text.index("\0")].count("\n") + 1
        raise StatsInputError(path, line, "holds a NUL character: this is not a CSV text file", line)
    previous = csv.field_size_limit(MAX_FIELD)  # the csv module's own bound, so no field is measured in Python
    try:
        reader = csv.reader(io.StringIO(text, newline=""), strict=True)
        try:
            rows = [cells for cells in reader if len(cells) > 1 or (cells and cells[0].strip())]
        except csv.Error as exc:
            raise _malformed(path, text, exc) from None
    finally:
        csv.field_size_limit(previous)
    if "'" in text:  # only then can a cell have been neutralised (a scan of the text is far cheaper than one of the cells)
        undo_neutralised(rows)
    if not rows:
        raise StatsInputError(path, 1, "is empty; expected a header row and answers")
    if len(rows) > MAX_ROWS:
        raise StatsInputError(path, MAX_ROWS + 1, f"has more than {MAX_ROWS:,} rows; split it")
    widest = max(map(len, rows))
    if widest > MAX_COLUMNS:
        number = next(i for i, cells in enumerate(rows, start=1) if len(cells) == widest)
        raise Table(path, rows, text).error(number, f"has {widest:,} columns, over the limit of {MAX_COLUMNS:,}")
    return Table(path, rows, text)


NEUTRALISED = ("'=", "'+", "'-", "'@", "'\t", "'\r", "''")  # the site's CSV export: a cell starting = + - @ tab CR or ', with a ' before


def undo_neutralised(rows: list[list[str]]) -> None:
    """The cells as the learner wrote them: the site's answers export (templates/site/store.js, csvField) puts a `'`
    before a cell that starts with = + - @ tab or CR, so a spreadsheet opening the file never runs it as a
    formula (OWASP's rule for CSV injection), and before one that starts with `'` itself, so that taking the
    one `'` off here, in place, gives back exactly what was typed."""
    for cells in rows:
        for i, cell in enumerate(cells):
            if cell.startswith(NEUTRALISED):
                cells[i] = cell[1:]


def _malformed(path: Path, text: str, exc: csv.Error) -> StatsInputError:
    """Where the reader stopped: a second, slow pass counts the records before it (only on this error path)."""
    number, start = 1, 1
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    previous = csv.field_size_limit(MAX_FIELD)
    try:
        for cells in reader:
            number += 1 if len(cells) > 1 or (cells and cells[0].strip()) else 0
            start = reader.line_num + 1
    except csv.Error:
        pass
    finally:
        csv.field_size_limit(previous)
    reason = f"a field over the limit of {MAX_FIELD:,} characters (a quote left open?)" if "field larger" in str(exc) else str(exc)
    return StatsInputError(path, number, f"is not well-formed CSV ({reason}); expected comma-separated fields, quoted with \"", start)
