"""Reading an uploaded CSV as hostile input: bounded bytes, rows, columns and field sizes, strict UTF-8.

Every record carries its number (the header is row 1) and the physical line it starts on, since a quoted
field may hold line breaks: messages name both. Any problem is a `StatsInputError` naming the file.
"""

from __future__ import annotations

import csv
import io
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from pipeline.stats.records import StatsInputError

MAX_BYTES = 64_000_000  # 10,000 learners x 100 items in the long format is about 40 MB
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
    path: Path
    records: list[Record]

    @property
    def header(self) -> list[str]:
        return self.records[0].cells if self.records else []

    def error(self, record: Record, message: str) -> StatsInputError:
        return StatsInputError(self.path, record.number, message, record.line)


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
    records: list[Record] = []
    previous = csv.field_size_limit(MAX_FIELD)  # the csv module's own bound, so no field is measured in Python
    try:
        reader = csv.reader(io.StringIO(text, newline=""), strict=True)
        start = 1
        for cells in reader:
            if len(cells) > 1 or (cells and cells[0].strip()):
                if len(cells) > MAX_COLUMNS:
                    raise StatsInputError(path, len(records) + 1, f"has {len(cells):,} columns, over the limit of {MAX_COLUMNS:,}", start)
                records.append(Record(len(records) + 1, start, cells))
            start = reader.line_num + 1
    except csv.Error as exc:
        limit = f"a field over the limit of {MAX_FIELD:,} characters (a quote left open?)" if "field larger" in str(exc) else str(exc)
        raise StatsInputError(path, len(records) + 1, f"is not well-formed CSV ({limit}); expected comma-separated fields, quoted with \"", start) from None
    finally:
        csv.field_size_limit(previous)
    if len(records) > MAX_ROWS:
        raise StatsInputError(path, MAX_ROWS + 1, f"has more than {MAX_ROWS:,} rows; split it")
    if not records:
        raise StatsInputError(path, 1, "is empty; expected a header row and answers")
    return Table(path, records)
