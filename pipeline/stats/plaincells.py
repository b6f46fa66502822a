"""Whether a CSV file's cells can be taken as the engine reads them, with nothing to trim or undo, told from its bytes.

The long format's cells are cleaned as the Python reader cleans them (`intake`'s `cell` macro: a neutralising `'`
undone, `str.strip`'s whitespace trimmed), which costs more than reading the file. A file written by a
machine usually needs none of it, and a scan of its bytes can prove so: when the file is ASCII (so no Unicode
whitespace), holds no `'` (so no neutralised cell), no space, tab, vertical tab, form feed, carriage return,
file/group/record/unit separator or NUL (so no cell starts or ends with whitespace, and none holds a NUL), and
every line break ends a record (the engine read one record more than there are lines: the header; so no quoted
cell holds a line break), then every cell is what the engine read. Each test is a byte search, run in C.
"""

from __future__ import annotations

from pathlib import Path

CHUNK = 1 << 23
BANNED = (b"'", b" ", b"\t", b"\x0b", b"\x0c", b"\r", b"\x1c", b"\x1d", b"\x1e", b"\x1f", b"\x00")


def lines_if_plain(path: Path) -> int | None:
    """The file's lines (a last one without a line break counted) when no cell can need cleaning, else None."""
    lines, last = 0, b"\n"
    with open(path, "rb") as handle:
        while chunk := handle.read(CHUNK):
            if not chunk.isascii() or any(b in chunk for b in BANNED):
                return None
            lines += chunk.count(b"\n")
            last = chunk[-1:]
    return lines + (last != b"\n")
