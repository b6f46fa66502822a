"""Watch the sources, the templates and pipeline.toml with watchfiles (the OS's file notifications, batched),
and call back once per batch of changes that can change an output."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable
from pathlib import Path

from watchfiles import Change, DefaultFilter, watch

SOURCE_SUFFIXES = (".yaml", ".yml", ".json", ".toml",  # sources, locks and deck state, pipeline.toml
                   ".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg")  # the images the sources show (pipeline/load/media.py)


class _Relevant(DefaultFilter):
    """watchfiles' default filter (no .git, caches, editor swap files), sources by suffix, templates all."""

    def __init__(self, templates: Path) -> None:
        super().__init__()
        self.templates = str(templates.resolve())

    def __call__(self, change: Change, path: str) -> bool:
        if not super().__call__(change, path):
            return False
        return path.startswith(self.templates) or path.endswith(SOURCE_SUFFIXES)


def watch_paths(sources: Path, templates: Path, settings: Path) -> list[Path]:
    """Existing paths to watch: pipeline.toml's folder is watched only for that file (through the filter)."""
    paths = [sources, templates]
    if settings.is_file():
        paths.append(settings)
    return [p for p in paths if p.exists()]


def run(paths: Iterable[Path], templates: Path, on_change: Callable[[set[str]], None], stop: threading.Event) -> None:
    """Until `stop` is set: for each batch of relevant changes, `on_change(changed paths)`. Ctrl-C reaches the
    caller as KeyboardInterrupt: told to swallow it, watchfiles logs "KeyboardInterrupt caught, stopping watch"."""
    for changes in watch(*paths, watch_filter=_Relevant(templates), stop_event=stop, raise_interrupt=True, debounce=300, step=50):
        on_change({os.path.relpath(path) for _, path in changes})
