"""What an example needs installed: its exam's requirements (exam.yaml and the requirements file beside
it) and its own, as one sorted set. Requirement files are read as hostile: names and version clauses
only (the schema's pattern), no pip option, include, URL or path; a bad line is reported at its line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from schema.models import REQUIREMENT_PATTERN, Exam, Example

_PATTERN = re.compile(REQUIREMENT_PATTERN)


@dataclass(frozen=True)
class FileProblem:
    path: Path
    line: int
    message: str


def read_requirements_file(path: Path) -> tuple[list[str], list[FileProblem]]:
    """The requirements of a requirements file (blank lines and # comments skipped), and what is wrong in it."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return [], [FileProblem(path, 1, f"cannot read the examples' requirements file ({exc.__class__.__name__}: {exc})")]
    found, problems = [], []
    for number, raw in enumerate(text.splitlines()[:500], start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if _PATTERN.match(line) and len(line) <= 300:
            found.append(line)
        else:
            problems.append(FileProblem(path, number, f"{line[:80]!r} is not a requirement from the package index; expected a name "
                                        "with optional version clauses, e.g. torch==2.13.0 (no pip option, URL or path)"))
    return found, problems


def exam_requirements(exam: Exam, folder: Path) -> tuple[str, ...]:
    listed = list(exam.examples.requirements)
    if exam.examples.requirements_file:
        listed += read_requirements_file(folder / exam.examples.requirements_file)[0]
    return tuple(listed)


def requirement_set(exam_requirements: tuple[str, ...], example: Example) -> tuple[str, ...]:
    """The sorted, de-duplicated set: the key of its environment and part of the example's hash."""
    return tuple(sorted({" ".join(r.split()) for r in (*exam_requirements, *example.requirements)}))
