"""An uploaded CSV read record by record, with `csvfile`'s checks and messages, holding no row it has passed.

This is the reading the engine's fast path falls back on: when DuckDB refuses a long-format file or a row
fails one of its checks, this pass finds the first problem and raises it exactly as `csvfile.read_table`
words it (the row, the physical line, what was expected); when it finds none (a file the csv module reads
but the engine does not, such as one with lines of spaces), `normalised` writes the records out as plain
CSV for the engine. Memory is one record; gzip is read as it is unpacked.
"""

from __future__ import annotations

import codecs
import contextlib
import csv
import gzip
import io
from collections.abc import Iterator
from pathlib import Path

from pipeline.stats.csvfile import MAX_COLUMNS, MAX_FIELD, NEUTRALISED, Record
from pipeline.stats.records import StatsInputError

GZIP_MAGIC = b"\x1f\x8b"
CHUNK = 1 << 20


def open_binary(path: Path):
    """The file's bytes, unpacked as read when it is gzip (told by its first bytes, not its name)."""
    with open(path, "rb") as probe:
        magic = probe.read(2)
    return gzip.open(path, "rb") if magic == GZIP_MAGIC else open(path, "rb")


@contextlib.contextmanager
def _field_limit():
    previous = csv.field_size_limit(MAX_FIELD)  # the csv module's own bound, so no field is measured in Python
    try:
        yield
    finally:
        csv.field_size_limit(previous)


def records(path: Path, undo: bool = True) -> Iterator[Record]:
    """The non-blank records, header first, each with its number and starting line; neutralised cells undone
    (`csvfile.undo_neutralised`) unless `undo` is false."""
    number, start = 0, 1
    try:
        with open_binary(path) as raw, _field_limit():
            text = io.TextIOWrapper(raw, encoding="utf-8-sig", newline="", errors="strict")
            reader = csv.reader(text, strict=True)
            while True:
                try:
                    cells = next(reader)
                except StopIteration:
                    break
                except csv.Error as exc:
                    raise _malformed(path, number + 1, start, exc) from None
                if len(cells) > 1 or (cells and cells[0].strip()):
                    number += 1
                    if len(cells) > MAX_COLUMNS:
                        raise StatsInputError(path, number, f"has {len(cells):,} columns, over the limit of {MAX_COLUMNS:,}", start)
                    if any("\0" in c for c in cells):
                        raise StatsInputError(path, start, "holds a NUL character: this is not a CSV text file", start)
                    yield Record(number, start, [c[1:] if undo and c.startswith(NEUTRALISED) else c for c in cells])
                start = reader.line_num + 1
    except UnicodeDecodeError:
        byte, line = _bad_utf8(path)
        raise StatsInputError(path, line, f"is not UTF-8 text (byte {byte:,}); download it again as CSV (UTF-8)", line) from None
    except (OSError, EOFError, gzip.BadGzipFile) as exc:
        raise StatsInputError(path, number + 1, f"cannot be read past line {start} ({exc}); give the file as the platform wrote it") from None
    if number == 0:
        raise StatsInputError(path, 1, "is empty; expected a header row and answers")


def _malformed(path: Path, number: int, start: int, exc: csv.Error) -> StatsInputError:
    if "NUL" in str(exc):
        return StatsInputError(path, start, "holds a NUL character: this is not a CSV text file", start)
    reason = f"a field over the limit of {MAX_FIELD:,} characters (a quote left open?)" if "field larger" in str(exc) else str(exc)
    return StatsInputError(path, number, f"is not well-formed CSV ({reason}); expected comma-separated fields, quoted with \"", start)


def _bad_utf8(path: Path) -> tuple[int, int]:
    """The first byte that is not UTF-8 and its line, found by decoding the bytes again piece by piece."""
    decoder = codecs.getincrementaldecoder("utf-8-sig")()
    offset, lines = 0, 1
    with open_binary(path) as raw:
        while chunk := raw.read(CHUNK):
            try:
                decoder.decode(chunk)
            except UnicodeDecodeError as exc:
                return offset + exc.start, lines + chunk[: exc.start].count(b"\n")
            offset, lines = offset + len(chunk), lines + chunk.count(b"\n")
    return offset, lines


def normalised(path: Path, out: Path) -> Path:
    """The records written again as plain CSV (every field quoted, one record a line but for quoted line
    breaks), for the engine to read a file only the csv module can; the header row is kept."""
    with out.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, quoting=csv.QUOTE_ALL, lineterminator="\n")
        for record in records(path, undo=False):  # the engine undoes neutralised cells itself
            writer.writerow(record.cells)
    return out
