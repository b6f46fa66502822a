"""The package timestamp: the modification time Anki gives every note and note type in the deck.

Anki's import (default "update if newer") updates a note only when the package's time is strictly newer
than the one it holds, so this number decides whether an edit reaches learners at all. The rule:

1. `SOURCE_DATE_EPOCH` when set: the same sources give the same package, byte for byte. Whoever sets it
   promises it is the time of the newest change (e.g. `git log -1 --format=%ct`, for a clean tree).
2. Otherwise the newest modification time of the exam's source files (the view's `sources_changed_at`):
   any edit, committed or not, makes its file the newest, so the package is newer than every earlier one
   (an unchanged tree gives the same time again, so a rebuild alone updates nothing).
3. Never older than needed: when notes or note types changed since the previous build in the same output
   folder but rule 2 gives a time that is not newer than that build's (an edit without a new review date,
   a template change), the time becomes the previous one plus a second.

Not the clock: every build would then look like an update and overwrite learners' own edits each time.
Not a hash of the content: a hash is not ordered, and Anki needs "newer".
"""

from __future__ import annotations

from pipeline.view.model import ExamView


def choose(newest_input: int, previous: int | None, changed: bool) -> int:
    """Rules 2 and 3 above (rule 1 is `package_timestamp`'s)."""
    if changed and previous is not None and newest_input <= previous:
        return previous + 1
    return newest_input


def package_timestamp(view: ExamView, previous: int | None, changed: bool) -> int:
    if view.source_date_pinned:
        return int(view.source_date.timestamp())
    return choose(view.sources_changed_at, previous, changed)
