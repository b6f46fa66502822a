"""Incremental builds: rebuild an output only when what it depends on changed.

An output's inputs are the part of the exam view it shows (so a comment-only or whitespace-only edit of
a source, which changes no view, rebuilds nothing), the templates it reads, its code (the import closure
of its renderer's module, `codedeps`: an edit to the deck's code rebuilds the deck alone), and the
build's options (paper size, SOURCE_DATE_EPOCH, ...). Their hash is kept per renderer beside the
generation it built (`OUT/.generations/<exam>-<n>.state.json`, see `generations`), so outputs and state
are published together; when it matches and the outputs are still there, the renderer is skipped
and its files are carried over byte-for-byte (hard links). `--force` ignores it.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from pipeline.paths import CODE_DIRS
from pipeline.paths import TEMPLATES as TEMPLATE_DIR
from pipeline.publish import codedeps, readback
from pipeline.publish.atomic import write_atomic


def _files(folder: Path, pattern: str = "*") -> Iterable[Path]:
    """The files under `folder`, sorted, skipping hidden folders and bytecode caches."""
    for path in sorted(folder.rglob(pattern)):
        parts = path.relative_to(folder).parts
        if path.is_file() and not any(p.startswith(".") or p == "__pycache__" for p in parts):
            yield path


# Written by the build itself (per-note Anki times, pipeline/render/anki/note_state.py): what the deck
# depends on is the sources that state follows, so counting it would rebuild every output after each change.
NOT_INPUTS = {"deck.state.json"}


def _hash_files(digest: hashlib._Hash, folder: Path, pattern: str = "*") -> None:
    for path in (p for p in _files(folder, pattern) if p.name not in NOT_INPUTS):
        digest.update(str(path.relative_to(folder)).encode() + b"\0" + path.read_bytes() + b"\0")


def code_digest(module: str | None = None) -> str:
    """The code an output depends on: its module's import closure; every .py file of pipeline/ and schema/
    when no module is named (a renderer given as a function)."""
    if module is not None:
        return codedeps.digest(codedeps.closure(module))
    digest = hashlib.sha256()
    for folder in CODE_DIRS:
        _hash_files(digest, folder, "*.py")
    return digest.hexdigest()


def template_digest(folders: tuple[str, ...]) -> str:
    """The templates an output reads (`""` names the whole templates folder)."""
    digest = hashlib.sha256()
    for name in folders:
        if (TEMPLATE_DIR / name).is_dir():
            _hash_files(digest, TEMPLATE_DIR / name)
    return digest.hexdigest()


# What no output shows: file times (a comment-only edit moves them) feed only the deck's package time,
# which matters only when something the deck shows changed.
# An image's bytes are shown, but its sha256 beside them stands for them (and bytes are not JSON).
NEVER_SHOWN = frozenset({"sources_changed_at", "media_bytes"})


def to_data(value: Any, leave_out: frozenset[str]) -> Any:
    """The view as JSON-able data, without the fields named in `leave_out` (at any depth)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_data(getattr(value, f.name), leave_out) for f in dataclasses.fields(value) if f.name not in leave_out}
    if isinstance(value, BaseModel):
        return to_data(value.model_dump(mode="json"), leave_out)
    if isinstance(value, dict):
        return {str(k): to_data(v, leave_out) for k, v in value.items() if k not in leave_out}
    if isinstance(value, list | tuple):
        return [to_data(v, leave_out) for v in value]
    if isinstance(value, dt.date | dt.datetime):
        return value.isoformat()
    return value


def view_text(view: Any, leave_out: frozenset[str]) -> str:
    """The part of the view an output shows, as canonical JSON: what its rebuild decision hashes."""
    return json.dumps(to_data(view, leave_out | NEVER_SHOWN), sort_keys=True, ensure_ascii=False)


def input_digest(shown: str, templates: str, code: str, options: dict[str, str], epoch: dt.datetime | None = None) -> str:
    """The hash of everything one output of one exam depends on: the part of the view it shows
    (`view_text`), its templates, the code version, the build's options and SOURCE_DATE_EPOCH (`epoch`, handed
    in from the build's inputs; hashed as the variable's digits, so a state written before stays fresh)."""
    digest = hashlib.sha256(f"{code}\0{templates}\0".encode())
    digest.update(shown.encode())
    env = {"SOURCE_DATE_EPOCH": str(int(epoch.timestamp())) if epoch else ""}
    digest.update(json.dumps({"options": options, "env": env}, sort_keys=True).encode())
    return digest.hexdigest()


def _entry_ok(entry: object) -> bool:
    """A renderer's record as `BuildState.record` writes it: files as relative paths inside the generation."""
    if not (isinstance(entry, dict) and isinstance(entry.get("digest"), str) and isinstance(entry.get("files"), list)):
        return False
    files = entry["files"]
    return all(isinstance(f, str) and f and not Path(f).is_absolute() and ".." not in Path(f).parts for f in files) and \
        isinstance(entry.get("warnings", []), list) and all(isinstance(w, str) for w in entry.get("warnings", []))


@dataclass
class BuildState:
    """Per renderer: the input digest of its last successful build and the files it wrote (relative)."""

    path: Path
    renderers: dict[str, dict] = field(default_factory=dict)
    problem: str | None = None  # why the file on disk could not be used, at its line and column

    @classmethod
    def load(cls, path: Path | None) -> BuildState:
        """The state at `path`; an empty one (build everything) when there is none or it is broken, read
        within bounds (`readback`): the build then repairs it, as it repairs what a killed build left."""
        if path is None:
            return cls(Path())
        try:
            raw, text = readback.load(path, max_bytes=10_000_000)
        except OSError:
            return cls(path)
        except readback.Unreadable as exc:
            return cls(path, problem=f"{path}:{exc.line}:{exc.col}: {exc.reason}")
        renderers = raw.get("renderers") if isinstance(raw, dict) else None
        if not isinstance(renderers, dict):
            line, col = readback.position(text, ("renderers",))
            return cls(path, problem=f"{path}:{line}:{col}: renderers: expected an object, one entry per output")
        wrong = next((name for name, entry in renderers.items() if not _entry_ok(entry)), None)
        if wrong is not None:
            line, col = readback.position(text, ("renderers", wrong))
            return cls(path, problem=f"{path}:{line}:{col}: renderers.{wrong}: expected its digest, files (inside the generation) and warnings")
        return cls(path, renderers)

    def is_fresh(self, renderer: str, digest: str, final_dir: Path) -> bool:
        entry = self.renderers.get(renderer)
        return bool(entry) and entry["digest"] == digest and all((final_dir / f).is_file() for f in entry["files"])

    def record(self, renderer: str, digest: str, files: list[str], warnings: list[str] | None = None) -> None:
        """`warnings` are kept so that a build leaving the output alone still says what it lacks."""
        self.renderers[renderer] = {"digest": digest, "files": sorted(files)} | ({"warnings": warnings} if warnings else {})

    def save(self) -> None:
        """Written aside and moved into place, like the outputs."""
        write_atomic(self.path, (json.dumps({"renderers": self.renderers}, indent=2, sort_keys=True) + "\n").encode())
