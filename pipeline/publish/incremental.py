"""Incremental builds: rebuild an output only when what it depends on changed.

An output's inputs are the exam's source folder (YAML files and the citation lock), the templates, the
code (pipeline/ and schema/), and the build's options (paper size, SOURCE_DATE_EPOCH, ...). Their
content hash is kept per renderer beside the generation it built (`OUT/.generations/<exam>-<n>.state.json`,
see `generations`), so outputs and state are published together; when it matches and the outputs are
still there, the renderer is skipped and its files are left byte-for-byte alone. `--force` ignores it.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.paths import CODE_DIRS
from pipeline.paths import TEMPLATES as TEMPLATE_DIR
from pipeline.publish.atomic import write_atomic


def _files(folder: Path, pattern: str = "*") -> Iterable[Path]:
    """The files under `folder`, sorted, skipping hidden folders and bytecode caches."""
    for path in sorted(folder.rglob(pattern)):
        parts = path.relative_to(folder).parts
        if path.is_file() and not any(p.startswith(".") or p == "__pycache__" for p in parts):
            yield path


def _hash_files(digest: hashlib._Hash, folder: Path, pattern: str = "*") -> None:
    for path in _files(folder, pattern):
        digest.update(str(path.relative_to(folder)).encode() + b"\0" + path.read_bytes() + b"\0")


def code_and_template_digest() -> str:
    """What every output depends on besides its sources: the code and the templates."""
    digest = hashlib.sha256()
    for folder in CODE_DIRS:
        _hash_files(digest, folder, "*.py")
    if TEMPLATE_DIR.is_dir():
        _hash_files(digest, TEMPLATE_DIR)
    return digest.hexdigest()


def input_digest(exam_folder: Path, renderer: str, options: dict[str, str], shared: str) -> str:
    """The hash of everything `renderer`'s output for this exam depends on."""
    digest = hashlib.sha256(shared.encode())
    _hash_files(digest, exam_folder)
    env = {"SOURCE_DATE_EPOCH": os.environ.get("SOURCE_DATE_EPOCH", "")}
    digest.update(json.dumps({"renderer": renderer, "options": options, "env": env}, sort_keys=True).encode())
    return digest.hexdigest()


@dataclass
class BuildState:
    """Per renderer: the input digest of its last successful build and the files it wrote (relative)."""

    path: Path
    renderers: dict[str, dict] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path | None) -> BuildState:
        """The state at `path`; an empty one (build everything) when there is none or it is broken."""
        try:
            renderers = json.loads(path.read_text(encoding="utf-8")).get("renderers", {}) if path else {}
            if not all(isinstance(e, dict) and isinstance(e.get("digest"), str) and isinstance(e.get("files"), list) for e in renderers.values()):
                renderers = {}
            return cls(path or Path(), renderers)
        except (OSError, ValueError, AttributeError):
            return cls(path or Path())

    def is_fresh(self, renderer: str, digest: str, final_dir: Path) -> bool:
        entry = self.renderers.get(renderer)
        return bool(entry) and entry["digest"] == digest and all((final_dir / f).is_file() for f in entry["files"])

    def record(self, renderer: str, digest: str, files: list[str]) -> None:
        self.renderers[renderer] = {"digest": digest, "files": sorted(files)}

    def save(self) -> None:
        """Written aside and moved into place, like the outputs."""
        write_atomic(self.path, (json.dumps({"renderers": self.renderers}, indent=2, sort_keys=True) + "\n").encode())
