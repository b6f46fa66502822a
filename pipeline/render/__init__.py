"""The renderers: one module per output format, each `render(ctx) -> list[Path]`, listed in RENDERERS.

A renderer reads only the exam view in its `RenderContext` (never YAML, the lock or the clock), writes only under
`ctx.out_dir`, each path once, and returns the paths it wrote. The build runs all of them into a
staging folder and moves their files into place only when every one succeeded.

RENDERERS names each renderer's module rather than importing it, so that a build with nothing to
redo never pays for importing weasyprint or genanki.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.view.model import ExamView


@dataclass(frozen=True)
class RenderContext:
    view: ExamView  # the exam, derived once: everything a renderer shows (pipeline/view/)
    out_dir: Path  # the staging folder for this exam: write here, never into the final folder
    previous_dir: Path | None = None  # the last build's folder for this exam, when there is one
    paper: str = "a4"  # page size of printed outputs (`build --paper`): a CSS page size name, "a4" or "letter"
    sources_dir: Path | None = None  # the exam's source folder: the deck keeps its per-note times there (anki/note_state.py)
    # What a renderer could not hold, one sentence each ("moodle: question X (ordering) skipped: ..."); build prints them.
    warnings: list[str] = field(default_factory=list)


Renderer = Callable[[RenderContext], list[Path]]

# Where in the sources a question comes from: only outputs that print it (the bank) depend on it, so a
# comment line added above a question rebuilds the bank and nothing else.
SOURCE_PLACE = frozenset({"source_file", "source_line"})


@dataclass(frozen=True)
class Option:
    """An option an output declares (`build --paper`, `paper` in pipeline.toml): it is part of that output's
    inputs only, so changing it rebuilds that output alone."""

    name: str
    choices: tuple[str, ...]
    default: str
    help: str


@dataclass(frozen=True)
class Output:
    """A registry entry: the renderer's module (imported only when it runs), the folders of templates/
    it reads, and the view fields it never shows (these two decide when it must run again); what it
    writes, in a few words; other names `--only` accepts for it; the options it takes."""

    module: str | Renderer
    templates: tuple[str, ...] = ()
    leaves_out: frozenset[str] = frozenset()
    writes: str = ""
    aliases: tuple[str, ...] = ()
    options: tuple[Option, ...] = ()


PAPER = Option("paper", ("a4", "letter"), "a4", "page size of the study guide")

# name -> its output; run in this order. The names say what an author gets (the study guide, the deck), not
# the tool behind it; the tools' names stay as aliases.
RENDERERS: dict[str, Output | str | Renderer] = {
    "guide": Output("pipeline.render.guide.pdf", ("guide",), SOURCE_PLACE, "study-guide.pdf", ("pdf",), (PAPER,)),
    "deck": Output("pipeline.render.anki.deck", ("anki",), SOURCE_PLACE, "deck.apkg, deck-changes.json", ("anki",)),
    "bank": Output("pipeline.render.bank", writes="bank.json"),
    "site": Output("pipeline.render.site.site", ("site",), SOURCE_PLACE, "site/"),
    "moodle": Output("pipeline.render.lms.moodle", (), SOURCE_PLACE, "moodle.xml"),
    "gift": Output("pipeline.render.lms.gift", (), SOURCE_PLACE, "questions.gift"),
    "qti21": Output("pipeline.render.lms.qti21", (), SOURCE_PLACE, "qti21.zip", ("qti",)),
    "canvas": Output("pipeline.render.lms.canvas", (), SOURCE_PLACE, "canvas-qti.zip"),
}


def output_names() -> list[str]:
    """The outputs' names, in build order."""
    return list(RENDERERS)


def resolve_output(name: str) -> str | None:
    """The registry name for `name` (a name or an alias, any case), or None."""
    wanted = name.strip().lower()
    for key, entry in RENDERERS.items():
        if wanted == key or wanted in output(entry).aliases:
            return key
    return None


def options() -> dict[str, tuple[str, Option]]:
    """Every declared option: name -> (the output it belongs to, the option)."""
    return {option.name: (name, option) for name, entry in RENDERERS.items() for option in output(entry).options}


def listing() -> str:
    """`guide (study-guide.pdf), deck (...), ...`: the one way help and messages list the outputs."""
    return ", ".join(f"{name} ({output(entry).writes})" if output(entry).writes else name for name, entry in RENDERERS.items())


def output(entry: Output | str | Renderer) -> Output:
    """A RENDERERS entry as an Output: a bare module name or function reads every template and every field."""
    return entry if isinstance(entry, Output) else Output(entry, ("",))


def load(entry: Output | str | Renderer) -> Renderer:
    """The render function behind a RENDERERS entry, importing its module on first use."""
    module = output(entry).module
    return importlib.import_module(module).render if isinstance(module, str) else module
