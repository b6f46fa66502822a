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

from pipeline.errors import PipelineError
from pipeline.load.loader import EXAM_FILE, exam_path
from pipeline.load.yamlsource import load_yaml
from pipeline.paths import ROOT, TEMPLATES
from pipeline.text.slug import slug
from pipeline.today import resolve_today

SCAFFOLD = TEMPLATES / "scaffold"
SCHEMAS = ROOT / "schema"
EXAM_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")
NUMBER = re.compile(r"^[0-9]+\.[0-9]+$")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    kinds = parser.add_subparsers(dest="kind", metavar="KIND", required=True)
    exam = kinds.add_parser("exam", help="a new exam folder with its exam.yaml", description="write SOURCES/ID/exam.yaml")
    exam.add_argument("exam_id", metavar="ID", help="the exam's id: lower case with dashes (e.g. dbx-ml-associate)")
    objective = kinds.add_parser("objective", help="a new objective file in an exam", description="write an objective file in SOURCES/EXAM/")
    objective.add_argument("exam_id", metavar="EXAM", help="the exam's id")
    objective.add_argument("number", metavar="NUMBER", help='the objective\'s number, e.g. 1.2 (its first part is the section)')
    objective.add_argument("title", metavar="TITLE", help="the objective's title")
    for sub in (exam, objective):
        sub.add_argument("--sources", type=Path, default=Path("sources"), metavar="DIR", help="the sources folder (default: sources)")
        sub.add_argument("--today", metavar="YYYY-MM-DD", help="the review date to write (default: SOURCE_DATE_EPOCH, else the clock)")


def _write(path: Path, template: str, **values: str) -> None:
    schema = os.path.relpath(SCHEMAS / f"{template}.schema.json", path.parent.resolve())
    text = Template((SCAFFOLD / f"{template}.yaml").read_text(encoding="utf-8")).substitute(schema=schema, **values)
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
    print(f"next: fill in {folder / EXAM_FILE}, then `python -m pipeline new objective {args.exam_id} 1.1 \"TITLE\"`", file=sys.stderr)
    return 0


def _section_folder(folder: Path, section: int) -> str:
    """`<n>-<section title>` when exam.yaml declares the section (as the sample is laid out), else `<n>`."""
    try:
        sections = load_yaml(exam_path(folder)).data.get("sections") or []
        title = next(s["title"] for s in sections if isinstance(s, dict) and s.get("number") == section)
        return f"{section}-{slug(str(title)) or 'section'}"
    except (PipelineError, StopIteration, AttributeError, KeyError, TypeError):
        return str(section)


def new_objective(args: argparse.Namespace) -> int:
    folder = args.sources / args.exam_id
    if exam_path(folder) is None:
        raise PipelineError(f"error: no exam '{args.exam_id}' in {args.sources}: run `python -m pipeline new exam {args.exam_id}` first")
    if not NUMBER.match(args.number):
        raise PipelineError(f"error: objective number {args.number!r}: expected SECTION.NUMBER, e.g. 1.2")
    path = folder / _section_folder(folder, int(args.number.split(".")[0])) / f"{args.number}-{slug(args.title) or 'objective'}.yaml"
    if path.exists():
        print(f"error: {path} already exists; nothing written", file=sys.stderr)
        return 1
    _write(path, "objective", exam_id=args.exam_id, number=args.number, title=args.title.replace('"', '\\"'),
           today=resolve_today(args.today).isoformat())
    return 0


def run(args: argparse.Namespace) -> int:
    return new_exam(args) if args.kind == "exam" else new_objective(args)
