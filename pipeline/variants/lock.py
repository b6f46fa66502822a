"""The variants lock: `sources/<exam>/variants.lock.json`, the committed result of running every varied
question's code (the `code:` form; the `values:` form needs no lock: nothing runs).

`variants` writes it; `validate` and `build` read it offline and never run code. One entry per question
id: the hash of what the draw depended on (`variants_hash`: the question's template fields, its
`variants:` block, the exam's requirements and the seed rule), the environment it ran in, each built
variant's index, seed and values, and the stress test's findings with the seeds that show them. An
entry whose hash is not the question's is stale: a warning (an error under --strict) naming the command
that renews it; build then still uses the values it holds.

Like examples.lock.json: written in id order, keys sorted, atomically, only when its text changed; read
as hostile (bounded, every field of its type) else a `VariantsLockError` (exit 2). No date and no
runtime are kept, so a run that draws the same values writes the same bytes.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt

from pipeline.errors import UsageError
from pipeline.publish import readback
from pipeline.publish.atomic import write_atomic
from pipeline.questions import QuestionBase
from pipeline.text.prog import COMMAND, command
from pipeline.variants.seeds import SEED_RULE
from pipeline.variants.unchanged import LOCK_NAME

FORMAT = 1
ABOUT = f"Written by `{COMMAND} variants`: the values each varied question's code returned, per variant. Commit it; do not edit it by hand."


class VariantsLockError(UsageError):
    """The lock exists but cannot be read (exit 2)."""

    def __init__(self, path: Path, reason: str, line: int = 1, col: int = 1) -> None:
        super().__init__(f"{path}:{line}:{col}: error: the variants lock cannot be read ({reason}); restore it from git or run `{command('variants')}`")


def variants_hash(q: QuestionBase, requirements: tuple[str, ...]) -> str:
    """What a draw and its stress test depend on: the whole question as written (its templates decide
    what the stress test finds), its `variants:`, the requirements and the seed rule."""
    body = {"question": q.model_dump(mode="json", by_alias=True), "requirements": list(requirements), "seed_rule": SEED_RULE}
    return "sha256:" + hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


@dataclass(frozen=True)
class LockedVariant:
    index: int
    seed: int
    values: dict[str, Any]

    def to_json(self) -> dict:
        return {"index": self.index, "seed": self.seed, "values": self.values}


@dataclass(frozen=True)
class LockedFinding:
    """A stress-test finding of the last run: its check's code, a sentence, and the seeds that show it."""

    code: str
    message: str
    seeds: tuple[int, ...] = ()

    def to_json(self) -> dict:
        return {"code": self.code, "message": self.message, "seeds": list(self.seeds)}


@dataclass(frozen=True)
class QuestionEntry:
    id: str
    hash: str
    environment: dict[str, Any]  # python, platform, isolation, requested [[name, version]]
    variants: tuple[LockedVariant, ...]
    findings: tuple[LockedFinding, ...] = ()
    draws: int = 0  # seeds the stress test drew

    def to_json(self) -> dict:
        return {"id": self.id, "hash": self.hash, "environment": self.environment, "draws": self.draws,
                "variants": [v.to_json() for v in self.variants], "findings": [f.to_json() for f in self.findings]}


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore")


Name = Annotated[str, Field(max_length=200)]
Value = StrictBool | StrictInt | StrictFloat | Annotated[str, Field(max_length=2000)]


class _Variant(_Strict):
    index: Annotated[int, Field(ge=1, le=10_000)]
    seed: Annotated[int, Field(ge=0)]
    values: Annotated[dict[Name, Value], Field(max_length=200)]


class _Finding(_Strict):
    code: Name
    message: Annotated[str, Field(max_length=2000)]
    seeds: Annotated[list[Annotated[int, Field(ge=0)]], Field(max_length=100_000)] = []


class _Environment(_Strict):
    python: Name
    platform: Name
    isolation: Name
    requested: Annotated[list[Annotated[list[Name], Field(min_length=2, max_length=2)]], Field(max_length=1000)] = []


class _Entry(_Strict):
    id: Name
    hash: Name
    environment: _Environment
    draws: Annotated[int, Field(ge=0)] = 0
    variants: Annotated[list[_Variant], Field(max_length=10_000)]
    findings: Annotated[list[_Finding], Field(max_length=1000)] = []


class _Lock(_Strict):
    about: Annotated[str, Field(max_length=2000)] = ""
    format: Literal[1] = 1
    questions: Annotated[list[_Entry], Field(max_length=100_000)] = []


@dataclass
class VariantsLock:
    path: Path
    entries: dict[str, QuestionEntry] = field(default_factory=dict)

    @classmethod
    def load(cls, exam_folder: Path) -> VariantsLock:
        path = exam_folder / LOCK_NAME
        if not path.exists() and not path.is_symlink():
            return cls(path, {})
        try:
            raw, text = readback.load(path)
            record = readback.checked(_Lock, raw, text)
        except readback.Unreadable as exc:
            raise VariantsLockError(path, exc.reason, exc.line, exc.col) from None
        except OSError as exc:
            raise VariantsLockError(path, exc.strerror or type(exc).__name__) from None
        entries = {}
        for e in record.questions:
            entries[e.id] = QuestionEntry(e.id, e.hash, e.environment.model_dump(),
                                          tuple(LockedVariant(v.index, v.seed, dict(v.values)) for v in e.variants),
                                          tuple(LockedFinding(f.code, f.message, tuple(f.seeds)) for f in e.findings), e.draws)
        return cls(path, entries)

    def to_text(self) -> str:
        document = {"about": ABOUT, "format": FORMAT, "questions": [self.entries[k].to_json() for k in sorted(self.entries)]}
        return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"

    def save(self) -> bool:
        text = self.to_text()
        if self.path.is_file() and self.path.read_text(encoding="utf-8") == text:
            return False
        write_atomic(self.path, text.encode("utf-8"))
        return True
