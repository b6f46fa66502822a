"""`stats`: read every response file, map, compute, then write item-stats.json and the report at once.

Everything is read and checked before anything is written: a file that cannot be read as its format
stops the run (exit 1) with the file, the row and what was expected, and nothing is written. The
report folder is built beside its final place and swapped in, so a reader sees the old one or the new.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.derive.build import build_view
from pipeline.publish import owned
from pipeline.stats import engine, intake, report, store
from pipeline.stats.analyse import analyse
from pipeline.stats.match import QuestionIndex
from pipeline.stats.records import Parsed, StatsInputError
from pipeline.text.terminal import for_terminal

if TYPE_CHECKING:  # the value's shape only: the reader (pipeline/settings/reader.py) sits above this stage
    from pipeline.inputs.value import ExamInputs

SHOWN_UNMATCHED = 20
KIND = "stats"  # the marker of a report folder (pipeline/publish/owned.py)


@dataclass(frozen=True)
class StatsResult:
    item_stats: Path
    report_dir: Path
    data: store.ItemStatsFile
    parsed: list[Parsed]
    findings: int


def read_and_analyse(exam_id: str, files: list[Path], index: QuestionIndex, today: dt.date, all_attempts: bool = False,
                     since: dt.date | None = None):
    """Every file read into the engine, and the statistics of what they hold (nothing written)."""
    with engine.connect() as con:
        taken = intake.read_all(con, files, index, since)
        return taken.parsed, analyse(exam_id, con, taken, index, today, all_attempts, since)


def run_stats(inputs: ExamInputs, files: list[Path], out: Path, today: dt.date, all_attempts: bool = False,
              since: dt.date | None = None) -> StatsResult:
    content = inputs.content
    check_out(out, content.folder.parent)
    view = build_view(inputs)
    index = QuestionIndex.of(view)
    parsed, data = read_and_analyse(content.exam.id, files, index, today, all_attempts, since)
    if not data.items:
        names = ", ".join(str(p) for p in files)
        raise StatsInputError(files[0], 1, f"no row of {names} maps to a question of exam '{content.exam.id}' (see the unmatched rows above); "
                                           "nothing written")
    unmatched = [u for p in parsed for u in p.unmatched]
    checks = dict(content.exam.checks)
    report_dir = _publish(out, lambda folder: report.write(folder, data, index, checks, unmatched))
    path = store.save(content.folder, data)
    findings = sum(1 for row in report.rows(data, index, checks) if row.found)
    return StatsResult(path, report_dir, data, parsed, findings)


def check_out(out: Path, sources: Path) -> None:
    """`out` is replaced whole: never the sources folder, in it or holding it, and only a report folder
    `stats` made, or a new or empty one (pipeline/publish/owned.py); a usage error otherwise, nothing removed."""
    owned.apart(out, sources, "--out")
    if out.exists() or out.is_symlink():
        owned.claim(out, KIND, "--out")


def _publish(out: Path, write) -> Path:
    """Write into a fresh folder beside `out`, then swap it in (the old report removed after)."""
    owned.make(out.parent, owned.PARENT)
    fresh = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.new-"))
    try:
        owned.mark(fresh, KIND)
        write(fresh)
        old = None
        if out.exists():
            old = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.old-"))
            out.rename(old / "report")
        fresh.rename(out)
        if old:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        with contextlib.suppress(OSError):
            shutil.rmtree(fresh)
        raise
    return out


def print_unmatched(parsed: list[Parsed]) -> None:
    """One line per file and reason ("row 18 and 319 more rows"), the first SHOWN_UNMATCHED reasons; the report lists every row."""
    groups: dict[tuple[Path, str], list[int]] = {}
    for u in (u for p in parsed for u in p.unmatched):
        groups.setdefault((u.path, u.reason), []).append(u.row)
    for (path, reason), rows in list(groups.items())[:SHOWN_UNMATCHED]:
        more = f" and {len(rows) - 1} more rows" if len(rows) > 1 else ""
        print(for_terminal(f"{path}: row {rows[0]}{more}: unmatched: {reason}"), file=sys.stderr)  # learners' text: inert
    if len(groups) > SHOWN_UNMATCHED:
        print(f"... and {len(groups) - SHOWN_UNMATCHED} more reasons rows were unmatched for (every row is in the report)", file=sys.stderr)
