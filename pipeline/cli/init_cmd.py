"""`init [DIR]`: a content folder to start from, in one command (mkdocs' `new`).

DIR (default: the current folder, created when missing) gets:

- `sources/<exam>/exam.yaml` and `sources/<exam>/1-basics/1.1-how-the-web-answers.yaml`: a first exam that
  validates and builds as written, with one question of each type, each commented (templates/init/);
- `pipeline.toml`, every setting written out commented, the outputs' options read from the output registry;
- `.gitignore` (build/), `.github/workflows/audit.yml` (the weekly citation audit, installing this version);
- `schemas/`: the JSON Schemas, which the YAML files' `$schema` lines point to relative to themselves, so
  editors keep finding them when the folder moves or the venv is rebuilt (`new exam` and `new objective`
  point there too when the content folder has them).

Nothing is overwritten: when any of these paths exists, nothing is written and the exit is 1, naming them.
Files are created exclusively ("x"); if writing fails midway, the files this run created are removed, so the
folder holds all of them or none.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from string import Template

from pipeline import __version__
from pipeline import render as registry
from pipeline.errors import PipelineError
from pipeline.paths import SCHEMAS, TEMPLATES
from pipeline.settings.reader import resolve_today
from pipeline.text.prog import command, prog

INIT = TEMPLATES / "init"
SCHEMA_FOLDER = "schemas"  # in the content folder: what the `$schema` lines point to
OBJECTIVE = Path("1-basics") / "1.1-how-the-web-answers.yaml"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("folder", nargs="?", type=Path, default=Path("."), metavar="DIR", help="the content folder to write (default: the current folder)")
    parser.add_argument("--exam", default="first-exam", metavar="ID", help="the first exam's id (default: first-exam)")
    parser.add_argument("--today", metavar="YYYY-MM-DD", help="the review date to write (default: SOURCE_DATE_EPOCH, else the clock)")


def settings_text() -> str:
    """pipeline.toml with every setting commented out at its default, the outputs' options from the registry."""
    lines = ["# The content folder's settings, written by `exam-prep init`. Every setting is shown at its default,",
             "# commented out: uncomment one to change it. The command line wins over [exams.ID], which wins over these.", "",
             f"# outputs = [{', '.join(repr(n).replace(chr(39), chr(34)) for n in registry.output_names())}]   # what `build` writes "
             "when --only is not given (default: every output)",
             '# out = "build"              # the output folder, inside this folder',
             "# strict = false             # warnings are errors, as --strict"]
    for name, (owner, option) in registry.options().items():
        lines.append(f'# {name} = "{option.default}"{" " * max(1, 20 - len(name) - len(option.default))}# {option.help} ({owner}): '
                     f"{' or '.join(option.choices)}")
    lines += ["", "# [exams.first-exam]          # per exam: outputs, strict and the outputs' options", '# outputs = ["guide", "site"]', ""]
    return "\n".join(lines)


def _files(folder: Path, exam: str, today: str) -> dict[Path, str]:
    """Every file init writes, path -> text."""
    exam_dir = folder / "sources" / exam

    def yaml(template: str, path: Path, schema: str) -> str:
        target = os.path.relpath(folder / SCHEMA_FOLDER / f"{schema}.schema.json", path.parent)
        text = (INIT / template).read_text(encoding="utf-8")
        return Template(text).substitute(schema=target, prog=prog(), exam_id=exam, code=exam.upper(), today=today)

    files = {exam_dir / "exam.yaml": yaml("exam.yaml", exam_dir / "exam.yaml", "exam"),
             exam_dir / OBJECTIVE: yaml("objective.yaml", exam_dir / OBJECTIVE, "objective"),
             folder / "pipeline.toml": settings_text(),
             folder / ".gitignore": (INIT / "gitignore").read_text(encoding="utf-8"),
             folder / ".github" / "workflows" / "audit.yml": (INIT / "audit.yml").read_text(encoding="utf-8").replace("$version", __version__)}
    for schema in sorted(SCHEMAS.glob("*.schema.json")):
        files[folder / SCHEMA_FOLDER / schema.name] = schema.read_text(encoding="utf-8")
    return files


def _write_all(files: dict[Path, str]) -> None:
    """Create every file or none: a failure removes what this run created (and only that)."""
    created: list[Path] = []
    try:
        for path, text in files.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("x", encoding="utf-8") as handle:  # "x": never overwrite, even a file made since the check
                created.append(path)
                handle.write(text)
    except OSError:
        for path in reversed(created):
            path.unlink(missing_ok=True)
        raise


def run(args: argparse.Namespace) -> int:
    from pipeline.cli.new_cmd import EXAM_ID

    if not EXAM_ID.match(args.exam):
        raise PipelineError(f"error: exam id {args.exam!r}: use lower case letters, digits and dashes (e.g. dbx-ml-associate)")
    folder: Path = args.folder
    if folder.exists() and not folder.is_dir():
        print(f"error: {folder} is a file, not a folder; nothing written", file=sys.stderr)
        return 2
    files = _files(folder, args.exam, resolve_today(args.today).isoformat())
    taken = [os.path.relpath(p) for p in files if os.path.lexists(p)]
    if taken:
        print(f"error: {folder} already holds {', '.join(taken)}; init writes only into a folder without them, and never "
              "overwrites a file: nothing written", file=sys.stderr)
        return 1
    _write_all(files)
    for path in files:
        if path.parent.name != SCHEMA_FOLDER:
            print(f"wrote {os.path.relpath(path)}", file=sys.stderr)
    print(f"wrote {os.path.relpath(folder / SCHEMA_FOLDER)}/ (the JSON Schemas your editor reads)", file=sys.stderr)
    inside = [] if folder.resolve() == Path.cwd().resolve() else [f"cd {folder}"]
    steps = " && ".join([*inside, command("validate"), command("build")])
    print(f"next: {steps}; then open build/{args.exam}/site/index.html", file=sys.stderr)
    return 0
