"""`new exam ID` and `new objective EXAM NUMBER TITLE`: write a commented skeleton to start from.

The skeletons (templates/scaffold/) validate as written, carry the schema line that makes editors
complete and check keys, and say in comments what each key is for. Exit 0 when written, 1 when the
file (or the exam) already exists: nothing is ever overwritten.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path
from string import Template

from pipeline.check.placeholders import TODO
from pipeline.cli.options import global_options
from pipeline.errors import PipelineError
from pipeline.load.loader import EXAM_FILE, exam_path
from pipeline.load.yamlsource import load_yaml
from pipeline.paths import SCHEMAS, TEMPLATES
from pipeline.settings.reader import resolve_today
from pipeline.text.prog import command, prog
from pipeline.text.slug import slug

SCAFFOLD = TEMPLATES / "scaffold"
EXAM_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")
OBJECTIVE_NUMBER = re.compile(r"^[0-9]+\.[0-9]+$")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    kinds = parser.add_subparsers(dest="kind", metavar="KIND", required=True)
    common = [global_options(after_verb=True)]
    exam = kinds.add_parser("exam", help="a new exam folder with its exam.yaml", description="write SOURCES/ID/exam.yaml", parents=common)
    exam.add_argument("exam_id", metavar="ID", help="the exam's id: lower case with dashes (e.g. dbx-ml-associate)")
    objective = kinds.add_parser("objective", help="a new objective file in an exam", description="write an objective file in SOURCES/EXAM/", parents=common)
    objective.add_argument("exam_id", metavar="EXAM", help="the exam's id")
    objective.add_argument("number", metavar="NUMBER", help='the objective\'s number, e.g. 1.2 (its first part is the section)')
    objective.add_argument("title", metavar="TITLE", help="the objective's title")
    for sub in (exam, objective):
        sub.add_argument("--sources", type=Path, default=Path("sources"), metavar="DIR", help="the sources folder (default: sources)")
        sub.add_argument("--today", metavar="YYYY-MM-DD", help="the review date to write (default: SOURCE_DATE_EPOCH, else the clock)")


def schema_for(path: Path, template: str) -> Path:
    """The schema a new file's `$schema` line points to: the content folder's copy (`init` writes `schemas/`), found
    in a folder holding the file, which moves with it; else the installed one (which a rebuilt venv moves)."""
    for folder in path.parent.resolve().parents:
        copy = folder / "schemas" / f"{template}.schema.json"
        if copy.is_file():
            return copy
    return SCHEMAS / f"{template}.schema.json"


def _write(path: Path, template: str, **values: str) -> None:
    schema = os.path.relpath(schema_for(path, template), path.parent.resolve())
    text = Template((SCAFFOLD / f"{template}.yaml").read_text(encoding="utf-8")).substitute(schema=schema, prog=prog(), **values)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("x", encoding="utf-8") as handle:  # "x": never overwrite an author's file
        handle.write(text)
    print(f"wrote {os.path.relpath(path)}", file=sys.stderr)


def new_exam(args: argparse.Namespace) -> int:
    if not EXAM_ID.match(args.exam_id):
        raise PipelineError(f"error: exam id {args.exam_id!r}: use lower case letters, digits and dashes (e.g. dbx-ml-associate)")
    folder = args.sources / args.exam_id
    if folder.exists():
        print(f"error: {folder} already exists; nothing written", file=sys.stderr)
        return 1
    _write(folder / EXAM_FILE, "exam", exam_id=args.exam_id, code=args.exam_id.upper(), today=resolve_today(args.today).isoformat())
    print(f"next: fill in {folder / EXAM_FILE}, then `{command('new', 'objective', args.exam_id, '1.1')} \"TITLE\"`", file=sys.stderr)
    return 0


def _sections(folder: Path) -> dict[int, str]:
    """exam.yaml's sections, number -> title, read as YAML (the exam may still have other errors)."""
    path = exam_path(folder)
    try:
        data = load_yaml(path).data
    except PipelineError as exc:
        raise PipelineError(f"error: {os.path.relpath(path)} cannot be read ({exc}); fix it first (`{command('validate')}` says where)") from None
    sections = data.get("sections") if isinstance(data, dict) else None
    return {s["number"]: str(s.get("title", "")) for s in sections or [] if isinstance(s, dict) and isinstance(s.get("number"), int)}


def _refuse_undeclared(folder: Path, number: str, section: int, sections: dict[int, str]) -> None:
    declared = ", ".join(f"{n} {title}" for n, title in sorted(sections.items())) or "none"
    closest = min(sections, key=lambda n: (abs(n - section), n)) if sections else None
    hint = f"; did you mean {closest}.{number.split('.')[1]}?" if closest is not None else ""
    raise PipelineError(f"error: section {section} is not declared in {os.path.relpath(exam_path(folder))} (declared: {declared}){hint} "
                        f"To add it, write `- {{number: {section}, title: ..., weight: ...}}` under `sections:` first")


def _section_folder(folder: Path, section: int, title: str) -> str:
    """The section's folder: one that exists already (`6`, `6-performance-optimization`), else `<n>-<title>`
    from the section's real title; while the title is still a placeholder, `<n>` alone."""
    existing = sorted(p.name for p in folder.iterdir() if p.is_dir() and (p.name == str(section) or p.name.startswith(f"{section}-")))
    if existing:
        return existing[0]
    if TODO.search(title) or not title.strip():
        print(f"note: section {section}'s title is still a placeholder, so the folder is named {section}/; "
              "any folder name works, rename it when you write the title", file=sys.stderr)
        return str(section)
    return f"{section}-{slug(title) or 'section'}"


def new_objective(args: argparse.Namespace) -> int:
    folder = args.sources / args.exam_id
    if exam_path(folder) is None:
        raise PipelineError(f"error: no exam '{args.exam_id}' in {args.sources}: run `{command('new', 'exam', args.exam_id)}` first")
    if not OBJECTIVE_NUMBER.match(args.number):
        raise PipelineError(f"error: objective number {args.number!r}: expected SECTION.NUMBER, e.g. 1.2")
    section, sections = int(args.number.split(".")[0]), _sections(folder)
    if section not in sections:
        _refuse_undeclared(folder, args.number, section, sections)
    path = folder / _section_folder(folder, section, sections[section]) / f"{args.number}-{slug(args.title) or 'objective'}.yaml"
    if path.exists():
        print(f"error: {path} already exists; nothing written", file=sys.stderr)
        return 1
    _write(path, "objective", exam_id=args.exam_id, number=args.number, title=args.title.replace('"', '\\"'),
           today=resolve_today(args.today).isoformat())
    return 0


def run(args: argparse.Namespace) -> int:
    return new_exam(args) if args.kind == "exam" else new_objective(args)
