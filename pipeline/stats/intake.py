"""Every response file into the engine's one long view of answers: `answers` and `pair_option`.

A file is told by its first bytes, not its name: gzip is unpacked as read; Parquet starts with `PAR1`;
JSON Lines with `{`; anything else is CSV. The long layout (learner, question_id, response, score, time),
in any of these, is read by the engine itself: one pass into a table of the cleaned cells (neutralised
cells undone, spaces trimmed as Python's `str.strip`), checked by SQL; every distinct (question,
response) is graded once in Python (`formats.long.grade`, the one grading); the answers are then a join in
the engine (a view: made again by each pass over it, never held). Python never holds a row. The LMS exports (Moodle, Canvas: a few MB, one row per learner or
item) are read by their parsers as before and their answers handed to the engine.

Any problem raises the message reading the file whole gave: a row the SQL checks flag is explained by
`formats.long.check` (record by record, with the line), a file DuckDB refuses too; a file the engine
refuses but the csv module reads (lines of spaces, say) is rewritten plainly (`csvstream.normalised`).
"""

from __future__ import annotations

import csv
import datetime as dt
import gzip
import os
import stat
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from pipeline.stats import csvstream, plaincells
from pipeline.stats.csvfile import MAX_FIELD, read_table
from pipeline.stats.detect import detect
from pipeline.stats.formats import long, moodle_statistics
from pipeline.stats.match import QuestionIndex
from pipeline.stats.records import Parsed, StatsInputError, Unmatched

# Bounds of one long-format file. Rows are never held, so these are a question of disk and time (`stats` takes
# about 0.8 s per million rows on two cores), not of memory, which the engine's limit bounds: a 10-million-row file of
# 300 MB is well inside, a year of a large platform's practice tests (100 M rows, 2 GB) is one file a month.
MAX_BYTES = 4_000_000_000
MAX_ROWS = 20_000_000
MAX_LINE = 5 * (MAX_FIELD + 3) * 4  # five fields at the field limit, in UTF-8's widest
MAX_UNMATCHED_KEPT = 10_000  # rows listed in the report per file; every one is counted
WHITESPACE = "".join(c for c in map(chr, range(0x110000)) if c.isspace())  # what str.strip removes
_SCORE = r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?"
_TIME = r"[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}(:[0-9]{2}([.,][0-9]{1,9})?)?([Zz]|[+-][0-9]{2}(:?[0-9]{2}(:?[0-9]{2})?)?)"
COLUMNS = "{'learner': 'VARCHAR', 'question_id': 'VARCHAR', 'response': 'VARCHAR', 'score': 'VARCHAR', 'time': 'VARCHAR'}"


@dataclass
class Intake:
    """The files read into the engine, and the counters the record needs."""

    parsed: list[Parsed]
    before_since: int = 0  # answers older than --since (or without a time) left out
    pairs: dict = field(default_factory=dict)  # (question id, options chosen) -> an internal number
    listed: set = field(default_factory=set)  # the pairs whose options are in pair_option
    status: dict = field(default_factory=dict)  # (question id, response) as read -> graded | essay | unmatched
    place: dict = field(default_factory=dict)  # a file's number -> its place by (name, number): the first-attempt tie-break
    parts: list = field(default_factory=list)  # per long-format file, the SELECT of its answers from its cells (`answers` is their view)
    answers: int = 0  # answers in `answers`
    scored: int = 0  # of them, long-format rows with a score given, and answers a parser gave (an LMS's own marks):
    # while there are none, an answer's score is its grade's, and `columnar` sums per grade (`gid`) rather than per answer


def kind(path: Path) -> tuple[str, bool]:
    """(csv | parquet | jsonl, gzip?) from the file's first bytes; a usage of the file's limits on the way."""
    try:
        info = os.stat(path)
    except OSError as exc:
        raise StatsInputError(path, 0, f"cannot be read ({exc.strerror or exc})") from None
    if not stat.S_ISREG(info.st_mode):
        raise StatsInputError(path, 0, "is not a regular file; give the file the platform downloaded")
    if info.st_size > MAX_BYTES:
        raise StatsInputError(path, 0, f"is {info.st_size:,} bytes, over the {MAX_BYTES:,}-byte limit; split it by month or by course")
    with open(path, "rb") as handle:
        head = handle.read(4)
    packed = head[:2] == csvstream.GZIP_MAGIC
    if packed:
        try:
            with gzip.open(path, "rb") as handle:
                head = handle.read(64).lstrip(b"\xef\xbb\xbf \t\r\n")[:4]
        except (OSError, EOFError) as exc:
            raise StatsInputError(path, 0, f"is not a readable gzip file ({exc})") from None
    if head.startswith(b"PAR1") and not packed:
        return "parquet", False
    if head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{"):
        return "jsonl", packed
    return "csv", packed


def read_all(con: duckdb.DuckDBPyConnection, files: list[Path], index: QuestionIndex, since: dt.date | None = None) -> Intake:
    """Every file into `answers`; Moodle Statistics downloads parsed first, since they tell a Responses report its slots."""
    _tables(con)
    # the files ordered as the in-memory reference breaks a tie of times: by name, then the one given first
    intake = Intake([], place={n: i for i, n in enumerate(sorted(range(len(files)), key=lambda n: (files[n].name, n)))})
    order = list(index.keys)
    position = {qid: i for i, qid in enumerate(order)}
    position |= {qid: position[index.counted_as(qid)] for qid in index.variants}  # `<id>` of a varied question is its variant 1
    wide, parsed = [], {}
    for number, path in enumerate(files):
        what, packed = kind(path)
        top = True
        if what == "csv":
            is_long, top = _header(path)
            if not is_long:
                table = read_table(path)
                wide.append((number, table, detect(table)))
                continue
        parsed[number] = _read_long(con, intake, number, path, what, packed, index, position, since, top)
    wide.sort(key=lambda t: t[2] is not moodle_statistics)
    context: dict = {}
    for number, table, fmt in wide:
        p = fmt.parse(table, index, context)
        _insert_answers(con, intake, p, position, since, number)
        parsed[number] = p
    intake.parsed = [parsed[i] for i in range(len(files))]
    # a view, not a table: a long file's answers are its cells joined with their grades, and each pass over them
    # makes the join again (twice, without repeated answers), which costs less than holding a second copy of 10 M rows
    con.execute("CREATE OR REPLACE TEMP VIEW answers AS " + " UNION ALL ".join([*intake.parts, "SELECT * FROM given"]))
    return intake


def _tables(con) -> None:
    con.execute("CREATE OR REPLACE TABLE given (learner VARCHAR, item INTEGER, score DOUBLE, t_us BIGINT, fno INTEGER, ord BIGINT, pair INTEGER, "
                "gid INTEGER)")
    con.execute("CREATE OR REPLACE TABLE pair_option (pair INTEGER, option VARCHAR)")
    con.execute("CREATE OR REPLACE TABLE graded (qid VARCHAR, response VARCHAR, item INTEGER, by_key DOUBLE, reason VARCHAR, type VARCHAR, "
                "pair INTEGER, gid INTEGER)")
    con.execute("CREATE OR REPLACE MACRO undone(x) AS CASE WHEN x[1] = '''' AND x[2] IN ('=', '+', '-', '@', chr(9), chr(13), '''') "
                "THEN x[2:] ELSE x END")
    # A cell as the Python reader leaves it: neutralising undone, then str.strip's whitespace trimmed. trim() with a set
    # of characters costs twenty times a plain read, so only a cell that starts with ' or with anything but printable
    # ASCII, or ends with anything but printable ASCII, takes it (every whitespace character is one of those).
    # (x[-1], the last character, costs two thirds of right(x, 1).)
    con.execute("CREATE OR REPLACE MACRO cell(x, ws) AS CASE WHEN x = '' OR (ord(x) BETWEEN 33 AND 126 AND ord(x) <> 39 "
                "AND ord(x[-1]) BETWEEN 33 AND 126) THEN x ELSE trim(undone(x), ws) END")


def _header(path: Path) -> tuple[bool, bool]:
    """(the first record is the long format's header, it is on the first line), read by the csv module."""
    for record in csvstream.records(path):
        return long.detects(record.cells), record.line == 1
    return False, True


def _source(what: str, path: Path, packed: bool) -> tuple[str, list]:
    """The engine's reader of the file, as SQL with its parameters (`plain`: a file `csvstream.normalised` wrote)."""
    compression = "gzip" if packed else "none"
    if what in ("csv", "plain"):
        ending = ", new_line = '\\n'" if what == "plain" else ""
        return (f"read_csv(?, header = true, auto_detect = false, delim = ',', quote = '\"', escape = '\"', strict_mode = true{ending}, "
                f"allow_quoted_nulls = false, max_line_size = {MAX_LINE}, compression = ?, columns = {COLUMNS})"), [str(path), compression]
    if what == "jsonl":
        return f"read_json(?, format = 'newline_delimited', compression = ?, columns = {COLUMNS}, maximum_object_size = {MAX_LINE})", \
            [str(path), compression]
    return "read_parquet(?)", [str(path)]


def _load(con, name: str, what: str, path: Path, packed: bool) -> None:
    """The file's cells into table `name`, cleaned as the Python reader cleans them, at most MAX_ROWS + 1 rows. A plain
    CSV file is read without the cleaning once a scan of its bytes (`plaincells`) has found nothing a cell could need
    cleaning for and no more lines than MAX_ROWS + 1 (so no LIMIT: with one, the engine put the rows into the table
    in one thread, which took twice as long); only when the engine then reads a record fewer than the scan's lines
    less one (a quoted line break) is it read again with the cleaning."""
    if what == "csv" and not packed:
        lines = plaincells.lines_if_plain(path)
        if lines is not None and lines <= MAX_ROWS + 1:
            _create(con, name, what, path, packed, clean=False)
            if lines == con.execute(f"SELECT count(*) FROM {name}").fetchone()[0] + 1:
                return
    _create(con, name, what, path, packed, clean=True)


def _create(con, name: str, what: str, path: Path, packed: bool, clean: bool) -> None:
    source, params = _source(what, path, packed)
    columns = long.HEADER
    if what == "parquet":
        found = [row[0] for row in con.execute(f"DESCRIBE SELECT * FROM {source}", params).fetchall()]
        missing = [c for c in columns if c not in found]
        if missing:
            raise StatsInputError(path, 0, f"has no column {missing[0]!r}; expected the long layout's columns {', '.join(columns)}")
    if not clean:  # the scan rules out every cell the cleaning changes, and NUL characters
        cells = ", ".join(f"coalesce({c}, '') AS {c}" for c in columns)
        raw = " OR ".join(f"coalesce(strlen({c}) > {MAX_FIELD} AND length({c}) > {MAX_FIELD}, false)" for c in columns)
        con.execute(f"CREATE OR REPLACE TABLE {name} AS SELECT {cells}, {raw} AS raw_bad FROM {source}", params)
        return
    cells = ", ".join(f"cell(coalesce(CAST({c} AS VARCHAR), ''), ?) AS {c}" for c in columns)
    # length() counts characters, strlen() bytes (never fewer, and cheaper): only a cell of over MAX_FIELD bytes is counted
    raw = " OR ".join(f"coalesce(strlen(CAST({c} AS VARCHAR)) > {MAX_FIELD} AND length(CAST({c} AS VARCHAR)) > {MAX_FIELD} "
                      f"OR contains(CAST({c} AS VARCHAR), chr(0)), false)" for c in columns)
    con.execute(f"CREATE OR REPLACE TABLE {name} AS SELECT {cells}, {raw} AS raw_bad FROM {source} LIMIT {MAX_ROWS + 1}",
                [WHITESPACE] * len(columns) + params)


def _read_long(con, intake: Intake, number: int, path: Path, what: str, packed: bool, index, position, since, top: bool) -> Parsed:
    name = f"f{number}"
    first_row = 2 if what == "csv" else 1  # a CSV's header is row 1; Parquet and JSON Lines rows count from 1
    try:
        if not top:  # blank lines above the header: the engine would take the first for it
            raise duckdb.InvalidInputException("blank lines before the header")
        _load(con, name, what, path, packed)
    except duckdb.Error as exc:
        if what != "csv":
            raise StatsInputError(path, 0, f"cannot be read as {'Parquet' if what == 'parquet' else 'JSON Lines'} "
                                           f"({str(exc).splitlines()[0][:300]}); expected the long layout's columns {', '.join(long.HEADER)}") from None
        long.check(path, index)  # raises the first problem as the Python reader words it
        with tempfile.TemporaryDirectory(prefix="exam-prep-csv-") as tmp:  # the csv module reads it, the engine does not
            try:
                _load(con, name, "plain", csvstream.normalised(path, Path(tmp) / "plain.csv"), False)
            except duckdb.Error as again:
                raise StatsInputError(path, 0, f"cannot be read ({str(again).splitlines()[0][:300]})") from None
    rows = con.execute(f"SELECT count(*) FROM {name}").fetchone()[0]
    if rows > MAX_ROWS:
        raise StatsInputError(path, MAX_ROWS + first_row, f"has more than {MAX_ROWS:,} rows; split it by month or by course")
    _check(con, name, path, what, first_row, index)
    parsed = Parsed(path, long.NAME, rows=int(rows))
    tally = _grade_pairs(con, intake, name, index, position)
    join = f"FROM {name} c JOIN graded g ON g.qid = c.question_id AND g.response = c.response"
    parsed.unmatched_count = tally["unmatched"]
    if tally["unmatched"]:
        reasons = con.execute(f"SELECT c.rowid + {first_row}, g.reason {join} WHERE g.item IS NULL ORDER BY 1 LIMIT {MAX_UNMATCHED_KEPT}").fetchall()
        parsed.unmatched = [Unmatched(path, int(row), reason) for row, reason in reasons]
    essay = con.execute(f"SELECT c.rowid + {first_row}, c.question_id, g.type {join} WHERE g.item IS NOT NULL AND c.score = '' "
                        "AND g.by_key IS NULL ORDER BY 1 LIMIT 1").fetchall() if tally["essay"] else []
    if essay:
        row, qid, qtype = essay[0]
        raise StatsInputError(path, int(row), f"score: {qid} is a {qtype.replace('_', ' ')} question with no key to grade by; give a score from 0 to 1")
    when = "epoch_us(CAST(nullif(c.time, '') AS TIMESTAMPTZ))"
    keep = "true" if since is None else f"coalesce({when} >= {_since_us(since)}, false)"
    part = (f"SELECT c.learner, g.item, coalesce(CAST(nullif(c.score, '') AS DOUBLE), g.by_key) AS score, {when} AS t_us, "
            f"{int(intake.place[number])} AS fno, c.rowid + {first_row} AS ord, g.pair, g.gid {join} WHERE g.item IS NOT NULL AND {keep}")
    intake.parts.append(part)
    counts = tally["mapped"] if since is None else con.execute(f"SELECT count(*) FROM ({part})").fetchone()[0]
    if since is not None:
        intake.before_since += tally["mapped"] - int(counts)
    parsed.answered = int(counts)
    intake.answers += int(counts)
    return parsed


def _since_us(since: dt.date) -> int:
    return int(dt.datetime(since.year, since.month, since.day, tzinfo=dt.UTC).timestamp()) * 1_000_000


def _check(con, name: str, path: Path, what: str, first_row: int, index) -> None:
    """The first row the SQL checks flag, explained in the Python reader's words (or plainly when it finds nothing)."""
    bad = (f"raw_bad OR learner = '' OR length(learner) > {long.MAX_LEARNER} OR question_id = '' "
           f"OR (score <> '' AND NOT (regexp_full_match(score, '{_SCORE}') AND TRY_CAST(score AS DOUBLE) BETWEEN 0 AND 1)) "
           f"OR (time <> '' AND NOT (regexp_full_match(time, '{_TIME}') AND TRY_CAST(time AS TIMESTAMPTZ) IS NOT NULL))")
    found = con.execute(f"SELECT rowid, learner, question_id, response, score, time, raw_bad FROM {name} WHERE {bad} ORDER BY rowid LIMIT 1").fetchall()
    if not found:
        return
    row, *cells, raw_bad = found[0]
    number = int(row) + first_row
    if what == "csv":
        long.check(path, index)
    elif raw_bad:
        raise StatsInputError(path, number, f"holds a field over {MAX_FIELD:,} characters or a NUL character; give the answers as text")
    else:
        long.check_row(path, number, list(cells), index)
    raise StatsInputError(path, number, f"a cell of this row is not one the engine reads ({', '.join(repr(c[:40]) for c in cells)}); "
                                        "write scores as decimal numbers and times as 2026-11-29T14:03:07Z")


def _grade_pairs(con, intake: Intake, name: str, index: QuestionIndex, position: dict[str, int]) -> dict[str, int]:
    """Grade each new distinct (question, response) once; add them to `graded` and their options to `pair_option`.
    Returns how many of the file's rows are unmatched, an essay's, and mapped (so that the queries over every row
    that find them run only when there is something to find)."""
    counts = con.execute(f"SELECT question_id, response, count(*), count(*) FILTER (WHERE score <> '') FROM {name} GROUP BY ALL").fetchall()
    new = [(qid, response) for qid, response, _, _ in counts if (qid, response) not in intake.status]
    tally = {"unmatched": 0, "essay": 0, "graded": 0, "mapped": 0}
    if new:
        _grade_new(con, intake, new, index, position)
    for qid, response, n, scored in counts:
        kind = intake.status[(qid, response)]
        intake.scored += 0 if kind == "unmatched" else scored
        tally[kind] += n
        tally["mapped"] += 0 if kind == "unmatched" else n
    return tally


def _grade_new(con, intake: Intake, new: list[tuple[str, str]], index: QuestionIndex, position: dict[str, int]) -> None:
    with tempfile.TemporaryDirectory(prefix="exam-prep-graded-") as tmp:
        graded, options = Path(tmp) / "graded.csv", Path(tmp) / "options.csv"
        with graded.open("w", newline="", encoding="utf-8") as g, options.open("w", newline="", encoding="utf-8") as o:
            gw, ow = _writer(g), _writer(o)
            for qid, response in new:
                key, choices, score = long.grade(index, qid, response)
                intake.status[(qid, response)] = "unmatched" if key is None else "essay" if score is None else "graded"
                gid = len(intake.status)  # one number per distinct (question, response): what a learner's grades are listed by
                if key is None:
                    gw.writerow([qid, response, "", "", choices, "", "", gid])  # choices holds the reason here
                    continue
                pair = _pair(intake, key.id, choices)
                gw.writerow([qid, response, position[key.id], "" if score is None else repr(score), "", key.type, pair, gid])
                ow.writerows([pair, option] for option in _unlisted(intake, key.id, choices))
        _append(con, "graded", graded, GRADED)
        _append(con, "pair_option", options, OPTIONS)


def _append(con, table: str, path: Path, columns: dict[str, str]) -> None:
    """Rows Python wrote (every cell text, '' for none) into `table`, typed on the way."""
    names = ", ".join(f"'{c}': 'VARCHAR'" for c in columns)
    typed = ", ".join(f"CAST(nullif({c}, '') AS {t})" if t != "TEXT" else (f"nullif({c}, '')" if c in _OPTIONAL else c) for c, t in columns.items())
    con.execute(f"INSERT INTO {table} SELECT {typed} FROM read_csv(?, header = false, auto_detect = false, delim = ',', quote = '\"', "
                f"escape = '\"', new_line = '\\n', strict_mode = true, allow_quoted_nulls = false, columns = {{{names}}})", [str(path)])


def _writer(handle):
    """Rows for the engine: every field quoted, records ending in \n (told to the engine, never sniffed)."""
    return csv.writer(handle, quoting=csv.QUOTE_ALL, lineterminator="\n")


_OPTIONAL = ("reason", "type")
GRADED = {"qid": "TEXT", "response": "TEXT", "item": "INTEGER", "by_key": "DOUBLE", "reason": "TEXT", "type": "TEXT", "pair": "INTEGER",
          "gid": "INTEGER"}
OPTIONS = {"pair": "INTEGER", "option": "TEXT"}
ANSWERS = {"learner": "TEXT", "item": "INTEGER", "score": "DOUBLE", "t_us": "BIGINT", "fno": "INTEGER", "ord": "BIGINT", "pair": "INTEGER",
           "gid": "INTEGER"}


def _pair(intake: Intake, qid: str, choices) -> int:
    """An internal number per (question, options chosen): the options' sums are per pair, never per row."""
    return intake.pairs.setdefault((qid, choices), len(intake.pairs) + 1)


def _unlisted(intake: Intake, qid: str, choices) -> tuple[str, ...]:
    """The options of a pair not yet in pair_option (none for a question without options)."""
    if choices is None or (qid, choices) in intake.listed:
        return ()
    intake.listed.add((qid, choices))
    return choices


def _insert_answers(con, intake: Intake, parsed: Parsed, position: dict[str, int], since: dt.date | None, number: int) -> None:
    """A parser's answers (an LMS export, a few thousand rows) into `given` (a part of `answers`), through a temporary CSV; `ord` numbers
    them by their order in the file, then as listed (one record holds many answers), so no two answers tie."""
    cut = None if since is None else dt.datetime(since.year, since.month, since.day, tzinfo=dt.UTC)
    kept = [a for a in parsed.answers if cut is None or (a.time is not None and a.time >= cut)]
    intake.before_since += len(parsed.answers) - len(kept)
    parsed.answered = len(parsed.answers)
    parsed.unmatched_count = len(parsed.unmatched)
    intake.answers += len(kept)
    intake.scored += len(kept)
    if not kept:
        return
    with tempfile.TemporaryDirectory(prefix="exam-prep-answers-") as tmp:
        rows, options = Path(tmp) / "answers.csv", Path(tmp) / "options.csv"
        with rows.open("w", newline="", encoding="utf-8") as r, options.open("w", newline="", encoding="utf-8") as o:
            rw, ow = _writer(r), _writer(o)
            seq = [0] * len(kept)  # each answer's place by its order in the file (sorted is stable: then as listed)
            for place, i in enumerate(sorted(range(len(kept)), key=lambda i: kept[i].order)):
                seq[i] = place
            for a, ord_ in zip(kept, seq, strict=True):
                pair = _pair(intake, a.question_id, a.choices)
                t_us = "" if a.time is None else str(int(round(a.time.timestamp() * 1_000_000)))
                rw.writerow([a.learner, position[a.question_id], repr(a.score), t_us, intake.place[number], ord_, pair, ""])
                ow.writerows([pair, option] for option in _unlisted(intake, a.question_id, a.choices))
        _append(con, "given", rows, ANSWERS)
        _append(con, "pair_option", options, OPTIONS)
