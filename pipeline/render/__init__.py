"""The renderers: one module per output format, each `render(ctx) -> list[Path]`, listed in RENDERERS.

A renderer reads only the exam view in its `RenderContext` (never YAML, the lock or the clock), writes only under
`ctx.out_dir`, each path once, and returns the paths it wrote. The build runs all of them into a
staging folder and moves their files into place only when every one succeeded.

RENDERERS names each renderer's module rather than importing it, so that a build with nothing to
redo never pays for importing weasyprint or genanki.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the registry stays light: a no-op build reads output names and options without the view's models
    from pipeline.view.model import ExamView


@dataclass(frozen=True)
class RenderContext:
    view: ExamView  # the exam, derived once: everything a renderer shows (pipeline/view/)
    out_dir: Path  # the staging folder for this exam: write here, never into the final folder
    previous_dir: Path | None = None  # the last build's folder for this exam, when there is one
    # The outputs' options chosen for this build (`build --paper`, `paper` in pipeline.toml), by name; an option not
    # given is its default (OutputOption.default). Each output reads only its own (`Output.options`): `option()`.
    options: Mapping[str, str] = field(default_factory=dict)
    # State an output keeps beside the sources across builds (`Output.state`, e.g. the deck's per-note times): the
    # build reads it in (`kept`) and writes back what a renderer puts in `keep` once the outputs are published, so
    # no renderer writes outside its output folder.
    kept: Mapping[str, str] = field(default_factory=dict)
    keep: dict[str, str] = field(default_factory=dict)
    # What a renderer could not hold, one sentence each ("moodle: question X (ordering) skipped: ..."); build prints them.
    warnings: list[str] = field(default_factory=list)

    def option(self, name: str) -> str:
        """The chosen value of the option `name` (one of OPTIONS), else its default."""
        return self.options.get(name, OPTIONS[name].default)


Renderer = Callable[[RenderContext], list[Path]]

# Where in the sources a question comes from: only outputs that print it (the bank) depend on it, so a
# comment line added above a question rebuilds the bank and nothing else.
SOURCE_PLACE = frozenset({"source_file", "source_line"})


@dataclass(frozen=True)
class OutputOption:
    """An option an output declares (`build --paper`, `paper` in pipeline.toml): it is part of that output's
    inputs only, so changing it rebuilds that output alone."""

    name: str
    choices: tuple[str, ...]
    default: str
    help: str


@dataclass(frozen=True)
class Output:
    """A registry entry: the renderer's module (imported only when it runs), the folders of templates/
    it reads, the view fields it never shows, the build options it reads and the npm packages it ships
    (pipeline/render/vendor.py) (these four decide when it must run again), where it says it puts each item
    ("module:function", for the audit's blast radius), what it writes in a few words, and other names
    `--only` accepts for it."""

    module: str | Renderer
    templates: tuple[str, ...] = ()
    leaves_out: frozenset[str] = frozenset()
    options: tuple[str, ...] | None = ()  # the options it reads (OPTIONS, RenderContext.options); None: all
    places: str | None = None
    options_model: str | None = None  # "module:Class": the pydantic model of its options, which pipeline.toml is checked against
    state: tuple[str, ...] = ()  # files it keeps in the exam's source folder across builds (see RenderContext.kept)
    npm: tuple[str, ...] = ()  # npm packages whose files it copies into its output (pipeline/render/vendor.py)
    writes: str = ""
    aliases: tuple[str, ...] = ()


PAPER = OutputOption("paper", ("a4", "letter"), "a4", "page size of the study guide")
VARIANTS = OutputOption("variants", tuple(str(n) for n in range(1, 11)), "3", "notes a varied question makes in the deck, at most (its variants 1..N)")
OPTIONS = {option.name: option for option in (PAPER, VARIANTS)}  # every option an output may read: its values and default

# name -> its output; run in this order. The names say what an author gets (the study guide, the deck), not
# the tool behind it; the tools' names stay as aliases.
RENDERERS: dict[str, Output | str | Renderer] = {
    "guide": Output("pipeline.render.guide.pdf", ("guide",), SOURCE_PLACE, ("paper",), "pipeline.render.guide.places:places",
                    options_model="pipeline.render.guide.options:GuideOptions",
                    writes="study-guide.pdf", aliases=("pdf",)),
    "deck": Output("pipeline.render.anki.deck", ("anki",), SOURCE_PLACE, ("variants",), places="pipeline.render.anki.deck_notes:places",
                   options_model="pipeline.render.anki.options:DeckOptions",
                   state=("deck.state.json",), writes="deck.apkg, deck-changes.json", aliases=("anki",)),
    "bank": Output("pipeline.render.bank", writes="bank.json"),
    "site": Output("pipeline.render.site.site", ("site",), SOURCE_PLACE, places="pipeline.render.site.paths:places", npm=("ts-fsrs",),
                   writes="site/"),
    "moodle": Output("pipeline.render.lms.moodle", (), SOURCE_PLACE, writes="moodle.xml"),
    "gift": Output("pipeline.render.lms.gift", (), SOURCE_PLACE, writes="questions.gift"),
    "qti21": Output("pipeline.render.lms.qti21", (), SOURCE_PLACE, writes="qti21.zip", aliases=("qti",)),
    "canvas": Output("pipeline.render.lms.canvas", (), SOURCE_PLACE, writes="canvas-qti.zip"),
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


def options() -> dict[str, tuple[str, OutputOption]]:
    """Every option the outputs read: name -> (the output that reads it, the option)."""
    return {name: (key, OPTIONS[name]) for key, entry in RENDERERS.items() for name in (output(entry).options or ()) if name in OPTIONS}


def listing() -> str:
    """`guide (study-guide.pdf), deck (...), ...`: the one way help and messages list the outputs."""
    return ", ".join(f"{name} ({output(entry).writes})" if output(entry).writes else name for name, entry in RENDERERS.items())


def output(entry: Output | str | Renderer) -> Output:
    """A RENDERERS entry as an Output: a bare module name or function reads every template, field and option."""
    return entry if isinstance(entry, Output) else Output(entry, ("",), options=None)


def load(entry: Output | str | Renderer) -> Renderer:
    """The render function behind a RENDERERS entry, importing its module on first use."""
    module = output(entry).module
    return importlib.import_module(module).render if isinstance(module, str) else module


def places(name: str, view: ExamView) -> dict:
    """Where output `name` puts each item of `view`, as it declares (`Output.places`); empty when it does not say."""
    entry = output(RENDERERS[name])
    if entry.places is None:
        return {}
    module, function = entry.places.split(":")
    return getattr(importlib.import_module(module), function)(view)
