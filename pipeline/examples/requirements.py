"""What an example needs installed: its exam's requirements (exam.yaml and the requirements file beside
it) and its own, as one sorted set.

Requirement files are read as hostile. The file must be a regular file in the exam folder itself: a
symbolic link (to /etc/shadow, to another repository's secrets) or anything but a plain file is refused
without being opened, and at most `MAX_BYTES` are read. Each line must be a name with version clauses
(the schema's pattern: no pip option, include, URL, path or archive file); a bad line is reported at its
line number, never quoted, since a file that is not what it claims to be must not be printed.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from schema.models import REQUIREMENT_PATTERN, Exam, Example

_PATTERN = re.compile(REQUIREMENT_PATTERN)
MAX_BYTES = 64 * 1024  # far more than any list of requirements needs
MAX_LINES = 500


@dataclass(frozen=True)
class FileProblem:
    path: Path
    line: int | None  # None: the file as a whole (reported at `requirements_file` in exam.yaml)
    message: str


def is_index_requirement(text: str) -> bool:
    """A name and version clauses only: what pip can only resolve from the package index."""
    return len(text) <= 300 and _PATTERN.match(text) is not None


def _read_inside(folder: Path, name: str) -> str:
    """The text of `folder/name`, refused (ValueError, saying why) unless it is a plain file right there."""
    path = folder / name
    if os.sep in name or name in (".", ".."):
        raise ValueError("it must be a file beside exam.yaml")
    info = os.lstat(path)
    if stat.S_ISLNK(info.st_mode):
        raise ValueError("it is a symbolic link; write the requirements in the file itself, beside exam.yaml")
    if not stat.S_ISREG(info.st_mode):
        raise ValueError("it is not a regular file")
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)  # no link swapped in since the check
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise ValueError("it is not a regular file")
        data = handle.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise ValueError(f"it is over {MAX_BYTES // 1024} KiB; a requirements file lists a few packages")
    return data.decode("utf-8")


def read_requirements_file(folder: Path, name: str) -> tuple[list[str], list[FileProblem]]:
    """The requirements of the exam's requirements file (blank lines and # comments skipped), and what is
    wrong in it."""
    path = folder / name
    try:
        text = _read_inside(folder, name)
    except FileNotFoundError:
        return [], [FileProblem(path, None, f"no file {name} beside exam.yaml; create it or remove the key")]
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else "it is not UTF-8 text" if isinstance(exc, UnicodeDecodeError) else str(exc)
        return [], [FileProblem(path, None, f"{name} cannot be used: {why}")]
    found, problems = [], []
    for number, raw in enumerate(text.splitlines()[:MAX_LINES], start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if is_index_requirement(line):
            found.append(line)
        else:
            problems.append(FileProblem(path, number, "this line is not a requirement from the package index (not shown); expected a "
                                        "name with optional version clauses, e.g. torch==2.13.0 (no pip option, URL, path or archive file)"))
    return found, problems


def exam_requirements(exam: Exam, folder: Path) -> tuple[str, ...]:
    listed = list(exam.examples.requirements)
    if exam.examples.requirements_file:
        listed += read_requirements_file(folder, exam.examples.requirements_file)[0]
    return tuple(listed)


def requirement_set(exam_requirements: tuple[str, ...], example: Example) -> tuple[str, ...]:
    """The sorted, de-duplicated set: the key of its environment and part of the example's hash."""
    return tuple(sorted({" ".join(r.split()) for r in (*exam_requirements, *example.requirements)}))
