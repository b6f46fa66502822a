"""Folders the pipeline owns: it replaces or removes only what it wrote.

Every folder the pipeline makes to hold its outputs carries a marker file (MARKER) saying which command
made it: `build` for an output folder (OUT, OUT/.generations), `stats` for a report folder, `parent` for a
folder made only to hold one of those (`build/` made by `stats`). Before a command writes into a folder
that already exists, it claims it (`claim`): a folder with the command's marker (or a `parent` one) is its
own; an empty folder is marked and used; a folder that holds anything else is refused (a usage error
naming it, nothing removed). So `out = "/"` with an exam `etc`, `stats --out sources` or `build --out ~`
never delete a thing.

An output folder written before markers existed (only `.generations/`, links into it and a crash log) is
recognised by its shape and marked (`_earlier_build`), so upgrading does not refuse a user's build/.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

from pipeline.errors import UsageError

MARKER = ".pipeline-output"
PARENT = "parent"
_TEXT = ("pipeline-output: {kind}\n"
         "# Written by the exam-prep pipeline, which replaces what it wrote in this folder and refuses folders\n"
         "# without this file. Keep your own files elsewhere.\n")
_KIND = re.compile(r"^pipeline-output: ([a-z]+)$", re.M)
_SHOWN = 3  # names listed when a folder is refused


def kind(folder: Path) -> str | None:
    """The command that made `folder` (its marker's kind), None when it carries no marker (a link is none)."""
    path = folder / MARKER
    try:
        if path.is_symlink() or not path.is_file():
            return None
        with open(path, "rb") as handle:
            text = handle.read(4096).decode("utf-8", "replace")
    except OSError:
        return None
    match = _KIND.search(text)
    return match[1] if match else None


def mark(folder: Path, what: str) -> None:
    (folder / MARKER).write_text(_TEXT.format(kind=what), encoding="utf-8")


def make(folder: Path, what: str) -> None:
    """Create `folder` and each missing parent, each marked (the parents as `parent`)."""
    missing = []
    at = folder
    while not at.exists() and not at.is_symlink() and at != at.parent:
        missing.append(at)
        at = at.parent
    for path in reversed(missing):
        path.mkdir()
        mark(path, what if path == folder else PARENT)


def claim(folder: Path, what: str, label: str, *, earlier: Callable[[Path], bool] | None = None) -> None:
    """Make `folder` the `what` command's own, or refuse it: a usage error naming it, nothing touched.

    Its own: missing (created), marked by `what` or as a `parent`, empty, or (when `earlier` says so) an
    output of a version before markers; those last two are marked now."""
    if not folder.exists() and not folder.is_symlink():
        make(folder, what)
        return
    if not folder.is_dir():
        raise UsageError(f"error: {label} {folder}: is a file, expected a folder for the outputs; nothing was changed")
    found = kind(folder)
    if found in (what, PARENT):
        if found == PARENT:
            mark(folder, what)
        return
    entries = sorted(p.name for p in folder.iterdir())
    if found is None and (not entries or (earlier is not None and earlier(folder))):
        mark(folder, what)
        return
    shown = ", ".join(entries[:_SHOWN]) + (f" and {len(entries) - _SHOWN} more" if len(entries) > _SHOWN else "")
    whose = f"written by `{found}`, not `{what}`" if found else "not written by the pipeline"
    raise UsageError(f"error: {label} {folder}: the folder holds files {whose} ({shown}); nothing was removed. "
                     f"Choose a new or empty folder (the pipeline replaces only folders it made: they hold {MARKER})")


def apart(out: Path, sources: Path, label: str) -> None:
    """`out` must not be the sources folder, hold it or sit inside it: replacing it would delete sources."""
    there, kept = Path(os.path.realpath(out)), Path(os.path.realpath(sources))
    if there == kept or kept.is_relative_to(there) or there.is_relative_to(kept):
        where = "is" if there == kept else "holds" if kept.is_relative_to(there) else "is inside"
        raise UsageError(f"error: {label} {out}: {where} the sources folder {sources}; choose a folder for outputs only "
                         "(e.g. build); nothing was changed")
