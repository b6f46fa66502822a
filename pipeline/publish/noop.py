"""No-op builds: when not one byte a build reads changed since the last successful one, it says again what
that build said and stops, before loading a source, generating a question or building a view.

A build reads the sources folder, the templates, the code (pipeline/ and schema/), the pinned
dependencies (requirements.txt, package.json and package-lock.json), its own settings (the command line's values, "today" resolved, SOURCE_DATE_EPOCH) and the
outputs it left. The first five are hashed together (`fingerprint`, milliseconds even for a 100x exam);
a successful build keeps its fingerprint in `OUT/.generations/builds.json` beside what it printed (the
diagnostics, per exam its files and its renderers' warnings) and the generation each exam's link points
to (`remember`). The next build with the same fingerprint, whose exams' links still point to those
generations, with their state files as that build left them and every file still there, replays that
(`recall`); anything else (an edited source, a changed option, a deleted output, a broken state, an exam
with errors) takes the full path, which validates and builds as always, and the per-output digests of
`incremental` decide what is rewritten.

Sources are hostile input: only regular files are read (in blocks), a symbolic link is hashed as written
and never followed, a FIFO, device or socket by its kind alone (validation reports them). This module
imports nothing heavy: a no-op build costs the interpreter's start and the hashing.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pipeline.paths import CODE_DIRS, ROOT, TEMPLATES, VENDOR
from pipeline.publish import readback
from pipeline.publish.atomic import write_atomic
from pipeline.publish.generations import FOLDER, RECORDS, leftovers

KEEP = 8  # fingerprints remembered: a few alternating option sets (--exam, --paper) all stay no-ops
SKIPPED = frozenset({"__pycache__", "node_modules"})
NOT_INPUTS = frozenset({"deck.state.json"})  # written by the build itself (see incremental.NOT_INPUTS)
DEPENDENCIES = (ROOT / "requirements.txt", ROOT / "package.json", ROOT / "package-lock.json")  # pinned: Python's, npm's


def entries(folder: Path, left_out: frozenset[str] = NOT_INPUTS) -> Iterator[Path]:
    """Every entry under `folder`, sorted, hidden folders, caches and files named in `left_out` left out;
    symbolic links are not followed."""
    for directory, folders, names in os.walk(folder):
        folders[:] = sorted(f for f in folders if not f.startswith(".") and f not in SKIPPED)
        links = [f for f in folders if os.path.islink(os.path.join(directory, f))]
        for name in sorted([*names, *links]):
            if name not in left_out and not name.endswith(".pyc"):
                yield Path(directory, name)


def hash_entry(digest: hashlib._Hash, path: Path) -> None:
    """A regular file's bytes (read in blocks: a source may be huge), a link's target as written, and for
    anything else (a FIFO, a device, a socket: the loader refuses them) its kind alone, never its content."""
    mode = path.lstat().st_mode
    if stat.S_ISLNK(mode):
        digest.update(b"link\0" + os.readlink(path).encode(errors="surrogateescape"))
    elif stat.S_ISREG(mode):
        with path.open("rb") as handle:
            while block := handle.read(1 << 20):
                digest.update(block)
    else:
        digest.update(f"kind {stat.S_IFMT(mode)}".encode())


def fingerprint(sources: Path, settings: dict[str, Any], left_out: frozenset[str] = NOT_INPUTS) -> str | None:
    """The hash of every byte a build reads and of its settings; None when the sources cannot be read
    (the full path then says why). Files of the sources named in `left_out` are not hashed (`variants`
    hashes its own locks apart: pipeline/variants/unchanged.py)."""
    digest = hashlib.sha256(json.dumps(settings, sort_keys=True, default=str).encode())
    if not sources.is_dir():
        return None
    try:
        for label, folder in (("sources", sources), ("templates", TEMPLATES), *(("code", d) for d in CODE_DIRS)):
            digest.update(f"\0{label}\0".encode())
            for path in entries(folder, left_out if label == "sources" else NOT_INPUTS):
                digest.update(b"\0" + str(path.relative_to(folder)).encode(errors="surrogateescape") + b"\0")
                hash_entry(digest, path)
        for pinned in DEPENDENCIES:
            digest.update(b"\0" + (pinned.read_bytes() if pinned.is_file() else b""))
        for folder in _shipped():
            digest.update(f"\0npm\0{folder.name}\0".encode())
            for path in entries(folder):
                hash_entry(digest, path)
    except OSError:
        return None
    return digest.hexdigest()


def _shipped() -> list[Path]:
    """The npm packages outputs ship to readers (the site's ts-fsrs): their bytes are an output's inputs. Where
    pipeline.render.vendor reads them, when it is loaded (a test points it elsewhere), else pipeline/vendor/."""
    vendor = sys.modules.get("pipeline.render.vendor")
    folder = vendor.VENDOR if vendor else VENDOR
    return sorted(p for p in folder.iterdir() if p.is_dir()) if folder.is_dir() else []


@contextlib.contextmanager
def _locked(out: Path) -> Iterator[bool]:
    """OUT's build lock, when no build holds it (False: one does, so nothing is read or written)."""
    try:
        handle = open(out / FOLDER / ".lock", "rb")  # noqa: SIM115 - held for the block; never made here (OUT may not be ours)
    except OSError:
        yield False
        return
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        yield True


def _records(out: Path) -> list[dict[str, Any]]:
    """The records as `remember` wrote them; a record of any other shape is left out (its build then takes the
    full path), read within bounds: the file is on disk where anyone may have edited it."""
    try:
        raw, _ = readback.load(out / FOLDER / RECORDS, max_bytes=50_000_000)
    except (OSError, readback.Unreadable):
        return []
    records = raw if isinstance(raw, list) else []
    return [r for r in records if _record_ok(r)]


def _texts(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _row_ok(row: object, kinds: tuple[type, ...]) -> bool:
    return isinstance(row, list) and len(row) == len(kinds) and all(type(v) is k for v, k in zip(row, kinds, strict=True))


def _record_ok(record: object) -> bool:
    """A record as `remember` wrote it, every field of its type (checked by hand: pydantic is not imported here)."""
    if not (isinstance(record, dict) and isinstance(record.get("fingerprint"), str) and isinstance(record.get("exams"), list)):
        return False
    exams_ok = all(isinstance(e, dict) and isinstance(e.get("id"), str) and isinstance(e.get("generation"), str)
                   and all(_texts(e.get(k)) for k in ("files", "warnings", "outputs")) and isinstance(e.get("state"), str | None)
                   for e in record["exams"])
    shown, table, summary = record.get("diagnostics"), record.get("table"), record.get("summary")
    modes = ("grouped", "verbose")  # what a build prints without -v and with it (the counts are those of the lines shown)
    rows_ok = isinstance(shown, dict) and all(isinstance(shown.get(mode), list) and all(
        _row_ok(r, (str, int, int, str, str, str)) and r[3] in ("error", "warning") for r in shown[mode]) for mode in modes)
    table_ok = isinstance(table, dict) and all(isinstance(table.get(mode), list) and all(_row_ok(r, (str, int, int)) for r in table[mode])
                                               for mode in modes)
    return exams_ok and rows_ok and table_ok and isinstance(summary, dict) and all(_texts(summary.get(mode)) for mode in modes)



def state_digest(out: Path, generation: str) -> str | None:
    """The hash of a generation's state file (what the full path reads first), None when it cannot be read."""
    try:
        return hashlib.sha256((out / FOLDER / f"{generation}.state.json").read_bytes()).hexdigest()
    except OSError:
        return None


def _still_there(out: Path, exam: dict[str, Any]) -> bool:
    """The exam's link points to the recorded generation, its state file is as that build left it, and each
    of its files is there."""
    link = out / str(exam.get("id"))
    try:
        if not link.is_symlink() or Path(os.readlink(link)).name != exam.get("generation"):
            return False
    except OSError:
        return False
    if exam.get("state") is None or state_digest(out, str(exam["generation"])) != exam["state"]:
        return False
    return all((link / f).is_file() for f in exam.get("files", []))


def recall(out: Path, print_: str) -> dict[str, Any] | None:
    """What the last successful build with fingerprint `print_` said, when its outputs are all still published."""
    if not (out / FOLDER).is_dir():
        return None
    with _locked(out) as held:
        if not held:
            return None
        record = next((r for r in _records(out) if r.get("fingerprint") == print_), None)
    if record is None or not record["exams"] or not all(_still_there(out, e) for e in record["exams"]):
        return None
    if leftovers(out):  # a killed build's generations: the full path sweeps them (a replay would keep them forever)
        return None
    return record


def remember(out: Path, print_: str, record: dict[str, Any]) -> None:
    """Keep what a successful build said, under its fingerprint (the most recent KEEP are kept)."""
    if not (out / FOLDER).is_dir():
        return
    with _locked(out) as held:
        if not held:
            return  # another build is running: it will leave its own record
        others = [r for r in _records(out) if r.get("fingerprint") != print_]
        records = [{**record, "fingerprint": print_}, *others][:KEEP]
        write_atomic(out / FOLDER / RECORDS, (json.dumps(records, indent=1, sort_keys=True) + "\n").encode())
