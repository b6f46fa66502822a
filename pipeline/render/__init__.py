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

from pipeline.view.model import ExamView


@dataclass(frozen=True)
class RenderContext:
    view: ExamView  # the exam, derived once: everything a renderer shows (pipeline/view/)
    out_dir: Path  # the staging folder for this exam: write here, never into the final folder
    previous_dir: Path | None = None  # the last build's folder for this exam, when there is one
    paper: str = "a4"  # page size of printed outputs (`build --paper`): a CSS page size name, "a4" or "letter"
    # State an output keeps beside the sources across builds (`Output.state`, e.g. the deck's per-note times): the
    # build reads it in (`kept`) and writes back what a renderer puts in `keep` once the outputs are published, so
    # no renderer writes outside its output folder.
    kept: Mapping[str, str] = field(default_factory=dict)
    keep: dict[str, str] = field(default_factory=dict)
    # What a renderer could not hold, one sentence each ("moodle: question X (ordering) skipped: ..."); build prints them.
    warnings: list[str] = field(default_factory=list)


Renderer = Callable[[RenderContext], list[Path]]

# Where in the sources a question comes from: only outputs that print it (the bank) depend on it, so a
# comment line added above a question rebuilds the bank and nothing else.
SOURCE_PLACE = frozenset({"source_file", "source_line"})


@dataclass(frozen=True)
class Output:
    """A registry entry: the renderer's module (imported only when it runs), the folders of templates/
    it reads, the view fields it never shows, the build options it reads and the npm packages it ships
    (pipeline/render/vendor.py) (these four decide when it must run again), and where it says it puts each
    item ("module:function", for the audit's blast radius)."""

    module: str | Renderer
    templates: tuple[str, ...] = ()
    leaves_out: frozenset[str] = frozenset()
    options: tuple[str, ...] | None = ()  # RenderContext fields set from the command line that it reads; None: all
    places: str | None = None
    state: tuple[str, ...] = ()  # files it keeps in the exam's source folder across builds (see RenderContext.kept)
    npm: tuple[str, ...] = ()  # npm packages whose files it copies into its output (pipeline/render/vendor.py)


# name -> its output; run in this order.
RENDERERS: dict[str, Output | str | Renderer] = {
    "pdf": Output("pipeline.render.guide.pdf", ("guide",), SOURCE_PLACE, ("paper",), "pipeline.render.guide.places:places"),
    "anki": Output("pipeline.render.anki.deck", ("anki",), SOURCE_PLACE, places="pipeline.render.anki.deck_notes:places",
                   state=("deck.state.json",)),
    "bank": Output("pipeline.render.bank"),
    "site": Output("pipeline.render.site.site", ("site",), SOURCE_PLACE, places="pipeline.render.site.paths:places", npm=("ts-fsrs",)),
    "moodle": Output("pipeline.render.lms.moodle", (), SOURCE_PLACE),
    "gift": Output("pipeline.render.lms.gift", (), SOURCE_PLACE),
    "qti21": Output("pipeline.render.lms.qti21", (), SOURCE_PLACE),
    "canvas": Output("pipeline.render.lms.canvas", (), SOURCE_PLACE),
}


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
