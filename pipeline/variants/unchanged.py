"""No-op `variants` runs: when not one byte the run reads changed since a run that validated cleanly, it
says again what a run would say and stops, before loading a source, starting a sandbox or writing a lock.

The same design as a no-op build (pipeline/publish/noop.py, whose hashing it reuses): a run reads the
sources folder (the questions, their code, counts, seeds, values, bounds, distractors and templates, the
exam's requirements, the variants locks), the code (pipeline/, schema/, whose checks and seed rule decide
what is found), the pinned dependencies and its settings (the command line's values, "today" resolved,
SOURCE_DATE_EPOCH, the working folder its paths are printed from, and the sandbox's Python: its version
and platform, which the lock's entries record). Those are hashed in two parts, the variants locks apart
from the rest (`Key`), because the run itself writes the locks: a run that validated, drew and saved
keeps, under the key of the bytes it leaves (the sources as it read them, the locks as it wrote them),
what a run over those bytes prints (every question then unchanged since the lock: its recorded findings
again, nothing drawn, no lock written), provided the sources were not edited while it ran. The records
sit in the environments' cache (`--envs`, default build/examples/envs), beside what else only this
machine's runs reuse: nothing committed changes, and a deleted cache costs one full run.

A run with errors in its sources is never recorded, so a source with errors always takes the full path
and its errors are printed; a changed byte anywhere, another option, another day or another Python takes
it too. `--force` always does. This module imports nothing heavy: pydantic, the loader and the checks are
loaded only past it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.publish import readback
from pipeline.publish.atomic import write_atomic
from pipeline.publish.noop import NOT_INPUTS, entries, fingerprint, hash_entry

LOCK_NAME = "variants.lock.json"  # pipeline/variants/lock.py's (imported from here: that module loads pydantic)
RECORDS = "variants-runs.json"
KEEP = 8  # keys remembered: a few alternating option sets (--exam, --stress) all stay no-ops
PRINT_ONLY = frozenset({"quiet", "verbose", "debug", "run", "command", "settings"})  # not what a run reads


@dataclass(frozen=True)
class Key:
    """What a run read: every byte but the locks' (`sources`, the settings included), and the locks' bytes."""

    sources: str
    locks: str


def settings(args: argparse.Namespace, today: str, python: Any, epoch: str) -> dict[str, Any]:
    """Every setting that decides what a run finds or prints: its options, "today", SOURCE_DATE_EPOCH (`epoch`,
    as the command line's reader read it), the working folder (findings are printed at paths relative to it)
    and the sandbox's Python."""
    values = {k: str(v.absolute()) if isinstance(v, Path) else v for k, v in vars(args).items() if k not in PRINT_ONLY}
    return {**values, "today": today, "SOURCE_DATE_EPOCH": epoch, "cwd": os.getcwd(),
            "python": [str(python.path), python.version, python.platform]}


def key(sources: Path, chosen: dict[str, Any]) -> Key | None:
    """The run's key, None when the sources cannot be read (the full path then says why)."""
    rest = fingerprint(sources, chosen, NOT_INPUTS | {LOCK_NAME})
    if rest is None:
        return None
    digest = hashlib.sha256(b"variants locks")
    try:
        for path in entries(sources):
            if path.name == LOCK_NAME:
                digest.update(b"\0" + str(path.relative_to(sources)).encode(errors="surrogateescape") + b"\0")
                hash_entry(digest, path)
    except OSError:
        return None
    return Key(rest, digest.hexdigest())


def _record_ok(record: object) -> bool:
    """A record as `remember` wrote it, every field of its type (by hand: pydantic is not imported here)."""
    if not isinstance(record, dict):
        return False
    texts = ("sources", "locks")
    numbers = ("total", "bad", "code")
    return (all(isinstance(record.get(k), str) for k in texts) and all(type(record.get(k)) is int for k in numbers)
            and record["code"] in (0, 1)
            and isinstance(record.get("out"), list) and all(isinstance(line, str) for line in record["out"]))


def _records(path: Path) -> list[dict[str, Any]]:
    """The records as `remember` wrote them, read within bounds (the file is on disk: anyone may edit it)."""
    try:
        raw, _ = readback.load(path, max_bytes=50_000_000)
    except (OSError, readback.Unreadable):
        return []
    return [r for r in raw if _record_ok(r)] if isinstance(raw, list) else []


def recall(folder: Path, found: Key) -> dict[str, Any] | None:
    """What a run over these bytes prints, when a run that validated cleanly left them."""
    return next((r for r in _records(folder / RECORDS) if (r["sources"], r["locks"]) == (found.sources, found.locks)), None)


def remember(folder: Path, found: Key, record: dict[str, Any]) -> None:
    """Keep what a run over these bytes prints (the most recent KEEP keys are kept). A lost race with
    another run loses a record, never a wrong one: each is written whole, atomically."""
    others = [r for r in _records(folder / RECORDS) if (r["sources"], r["locks"]) != (found.sources, found.locks)]
    records = [{**record, "sources": found.sources, "locks": found.locks}, *others][:KEEP]
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_atomic(folder / RECORDS, (json.dumps(records, indent=1, sort_keys=True) + "\n").encode())
    except OSError:
        return  # a cache: the next run takes the full path, which says what is wrong with the folder if it must
