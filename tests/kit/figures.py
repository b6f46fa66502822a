"""Figures for the figure tests: a PNG of random pixels (its bytes differ by seed), and a build in this process
whose printed lines (both streams: diagnostics go to standard output) come back with its exit code."""

from __future__ import annotations

import contextlib
import io
import random
from pathlib import Path

from PIL import Image

from pipeline.cli import main
from tests.conftest import TODAY


def png(path: Path, size=(160, 60), seed: int = 1) -> bytes:
    rng = random.Random(seed)
    image = Image.new("RGB", size)
    image.putdata([(rng.randrange(256), rng.randrange(256), 120) for _ in range(size[0] * size[1])])
    image.save(path, "PNG")
    return path.read_bytes()


def build(sources: Path, out: Path, *extra: str) -> tuple[int, str]:
    err = io.StringIO()  # what the command printed, both streams (diagnostics go to standard output)
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(err):
        code = main(["build", "--sources", str(sources), "--out", str(out), "--today", TODAY, *extra])
    return code, err.getvalue()
