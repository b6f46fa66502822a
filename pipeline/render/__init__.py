"""The renderers: one module per output format, each `render(ctx) -> list[Path]`, listed in RENDERERS.

A renderer reads only the validated content in its `RenderContext` (never YAML), writes only under
`ctx.out_dir`, each path once, and returns the paths it wrote. The build runs all of them into a
staging folder and moves their files into place only when every one succeeded.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pipeline.content import ExamContent
from pipeline.lock import CitationLock
from pipeline.render import bank


@dataclass(frozen=True)
class RenderContext:
    content: ExamContent
    out_dir: Path  # the staging folder for this exam: write here, never into the final folder
    source_date: dt.datetime  # the build's date, from SOURCE_DATE_EPOCH or the sources, never the clock
    lock: CitationLock  # each quote's check status and date (offline; `lock.entry(url, quote)`)
    previous_dir: Path | None = None  # the last build's folder for this exam, when there is one


Renderer = Callable[[RenderContext], list[Path]]

# name -> renderer; the order is the order they run in. Renderers land here as their issues do.
RENDERERS: dict[str, Renderer] = {
    "bank": bank.render,
}
