"""The package timestamp: the modification time Anki gives every note and note type in the deck.

Anki's import (default "update if newer") updates a note only when the package's time is strictly newer
than the one it holds, so this number decides whether an edit reaches learners at all. The rule:

1. `SOURCE_DATE_EPOCH` when set: the same sources give the same package, byte for byte. Whoever sets it
   promises it is the time of the newest change (e.g. `git log -1 --format=%ct`, for a clean tree).
2. Otherwise the newest modification time of the files the notes are made from: the exam's YAML files,
   the card templates and CSS, and the code that turns them into fields. Any edit, committed or not,
   in a repository or not, makes that file the newest, so the package is newer than every earlier one
   (an unchanged tree gives the same time again, so a rebuild alone updates nothing).
3. Never older than needed: when notes or note types changed since the previous build in the same output
   folder but rule 2 gives a time that is not newer than that build's (an edit in the same second, a copy
   that kept old file times, a clock set back), the time becomes the previous one plus a second.

Not the clock: every build would then look like an update and overwrite learners' own edits each time.
Not the commit time: an uncommitted edit, or sources outside a repository, would not be newer. Not a hash
of the content: a hash is not ordered, and Anki needs "newer".
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from pipeline.today import source_date_epoch


def newest_mtime(paths: Iterable[Path]) -> int:
    """Whole seconds, as Anki stores times."""
    return max(path.stat().st_mtime_ns for path in paths) // 1_000_000_000


def choose(newest_input: int, previous: int | None, changed: bool) -> int:
    """Rules 2 and 3 above (rule 1 is `package_timestamp`'s)."""
    if changed and previous is not None and newest_input <= previous:
        return previous + 1
    return newest_input


def package_timestamp(inputs: Iterable[Path], previous: int | None, changed: bool) -> int:
    epoch = source_date_epoch()
    if epoch is not None:
        return int(epoch.timestamp())
    return choose(newest_mtime(inputs), previous, changed)
