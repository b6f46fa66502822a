"""The examples lock: `sources/<exam>/examples.lock.json`, the committed result of running every example.

`examples` writes it; `validate` and `build` read it offline. One entry per example id: the hash of what
the run depended on (`example_hash`: code, recorded output, how it is compared, its requirement set and
device, the Python version and platform), the status, the date it ran, the environment it ran in, and
what it printed when that differs from the source (drifted) or why it failed. An example whose hash is
unchanged is not run again (the freeze) unless `--force`.

Written in id order, keys sorted, atomically (a temporary file, then `os.replace`): a run killed at any
point leaves the old lock or the new one.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from pipeline.errors import UsageError
from pipeline.publish import readback
from pipeline.publish.atomic import write_atomic
from pipeline.text.prog import COMMAND, command
from schema.example_status import ExampleStatus
from schema.models import Example

LOCK_NAME = "examples.lock.json"
FORMAT = 1
ABOUT = f"Written by `{COMMAND} examples`: one entry per worked example. Commit it; do not edit it by hand."


class ExamplesLockError(UsageError):
    """The lock exists but cannot be read: a broken machine-written file, not content (exit 2)."""

    def __init__(self, path: Path, reason: str, line: int = 1, col: int = 1) -> None:
        super().__init__(f"{path}:{line}:{col}: error: the examples lock cannot be read ({reason}); restore it from git or run `{command('examples')}`")


def example_hash(example: Example, requirements: tuple[str, ...]) -> str:
    """What the example's source says a run depends on: code, recorded output, how they are compared, the
    requirement set and the device. The machine's part (Python version, platform) is in the entry's
    environment, compared beside the hash, so `validate` can check a lock made on another machine."""
    body = {
        "code": example.code, "output": example.output, "stderr": example.stderr, "device": example.device,
        "tolerance": example.tolerance.model_dump() if example.tolerance else None, "language": example.language,
        "requirements": list(requirements),
    }
    return "sha256:" + hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


@dataclass(frozen=True)
class RunEnvironment:
    """Where an example ran: what the outputs print under it ("Python 3.11, torch 2.13.0 (CPU)")."""

    python: str  # 3.11.2
    platform: str  # linux-x86_64
    device: str  # cpu | cuda
    isolation: str  # bubblewrap; cgroup v1 (the sandbox and how memory was bounded) | none; ... (older locks: namespace, guard)
    requested: tuple[tuple[str, str], ...] = ()  # the requirements by name as declared (exam's first), with the versions installed
    packages: tuple[tuple[str, str], ...] = ()  # everything installed in the environment

    def to_json(self) -> dict:
        return {"python": self.python, "platform": self.platform, "device": self.device, "isolation": self.isolation,
                "requested": [list(pair) for pair in self.requested], "packages": dict(self.packages)}

    @classmethod
    def from_json(cls, raw: dict) -> RunEnvironment:
        return cls(raw["python"], raw["platform"], raw["device"], raw["isolation"],
                   tuple((str(n), str(v)) for n, v in raw.get("requested", [])), tuple(sorted(raw.get("packages", {}).items())))


@dataclass(frozen=True)
class LockEntry:
    id: str
    status: ExampleStatus
    hash: str | None = None
    ran: dt.date | None = None
    environment: RunEnvironment | None = None
    actual: str | None = None  # what it printed, when that differs from the source (drifted, failed)
    exit: int | None = None  # failed: the exit status (negative: the signal that killed it)
    stderr: str | None = None  # failed: the last lines it wrote to stderr
    detail: str | None = None  # a sentence: why it failed, timed out or was not run

    def to_json(self) -> dict:
        raw = {"id": self.id, "status": self.status.value, "hash": self.hash, "ran": self.ran.isoformat() if self.ran else None,
               "environment": self.environment.to_json() if self.environment else None, "actual": self.actual,
               "exit": self.exit, "stderr": self.stderr, "detail": self.detail}
        return {k: v for k, v in raw.items() if v is not None}

    @classmethod
    def from_json(cls, raw: dict) -> LockEntry:
        env = raw.get("environment")
        return cls(str(raw["id"]), ExampleStatus(raw["status"]), raw.get("hash"),
                   dt.date.fromisoformat(raw["ran"]) if raw.get("ran") else None,
                   RunEnvironment.from_json(env) if env else None, raw.get("actual"), raw.get("exit"), raw.get("stderr"),
                   raw.get("detail"))


class _Strict(BaseModel):
    """The lock's fields as `to_json` writes them: JSON types exactly (strict), fields unknown here ignored."""

    model_config = ConfigDict(strict=True, extra="ignore")


Text = Annotated[str, Field(max_length=200_000)]
Name = Annotated[str, Field(max_length=200)]
Day = Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}$"), AfterValidator(dt.date.fromisoformat)]


class _EnvironmentRecord(_Strict):
    python: Name
    platform: Name
    device: Name
    isolation: Name
    requested: Annotated[list[Annotated[list[Name], Field(min_length=2, max_length=2)]], Field(max_length=10_000)] = []
    packages: Annotated[dict[Name, Name], Field(max_length=10_000)] = {}


class _EntryRecord(_Strict):
    id: Name
    status: Literal[tuple(s.value for s in ExampleStatus)]  # type: ignore[valid-type]
    hash: Name | None = None
    ran: Day | None = None
    environment: _EnvironmentRecord | None = None
    actual: Text | None = None
    exit: int | None = None
    stderr: Text | None = None
    detail: Text | None = None


class _LockRecord(_Strict):
    about: Text = ""
    format: Literal[1] = 1
    examples: Annotated[list[_EntryRecord], Field(max_length=100_000)] = []


@dataclass
class ExamplesLock:
    path: Path
    entries: dict[str, LockEntry] = field(default_factory=dict)

    def entry(self, example_id: str) -> LockEntry:
        """The recorded run of this example, or a `not-run` entry when there is none."""
        return self.entries.get(example_id) or LockEntry(example_id, ExampleStatus.NOT_RUN)

    @classmethod
    def load(cls, exam_folder: Path) -> ExamplesLock:
        """The lock, read as hostile (a committed file): bounded in size and nesting, every field of its type
        (`_LockRecord`), else an `ExamplesLockError` (exit 2) naming the field at its line and column."""
        path = exam_folder / LOCK_NAME
        if not path.exists() and not path.is_symlink():
            return cls(path, {})
        try:
            raw, text = readback.load(path)
            readback.checked(_LockRecord, raw, text)
        except readback.Unreadable as exc:
            raise ExamplesLockError(path, exc.reason, exc.line, exc.col) from None
        except OSError as exc:
            raise ExamplesLockError(path, exc.strerror or type(exc).__name__) from None
        entries = (LockEntry.from_json(item) for item in raw.get("examples", []))  # every field checked above
        return cls(path, {e.id: e for e in entries})

    def to_text(self) -> str:
        document = {"about": ABOUT, "format": FORMAT, "examples": [self.entries[k].to_json() for k in sorted(self.entries)]}
        return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"

    def save(self) -> bool:
        """Write the lock atomically when its text changed; True when it was written."""
        text = self.to_text()
        if self.path.is_file() and self.path.read_text(encoding="utf-8") == text:
            return False
        write_atomic(self.path, text.encode("utf-8"))
        return True
