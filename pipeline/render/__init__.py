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
from dataclasses import dataclass
from pathlib import Path

from pipeline.view.model import ExamView


@dataclass(frozen=True)
class RenderContext:
    view: ExamView  # the exam, derived once: everything a renderer shows (pipeline/view/)
    out_dir: Path  # the staging folder for this exam: write here, never into the final folder
    previous_dir: Path | None = None  # the last build's folder for this exam, when there is one
    paper: str = "a4"  # page size of printed outputs (`build --paper`): a CSS page size name, "a4" or "letter"


Renderer = Callable[[RenderContext], list[Path]]

# name -> the module whose `render` writes that output (or the function itself); run in this order.
RENDERERS: dict[str, str | Renderer] = {
    "pdf": "pipeline.render.guide.pdf",
    "anki": "pipeline.render.anki.deck",
    "bank": "pipeline.render.bank",
}


def load(entry: str | Renderer) -> Renderer:
    """The render function behind a RENDERERS entry, importing its module on first use."""
    return importlib.import_module(entry).render if isinstance(entry, str) else entry
