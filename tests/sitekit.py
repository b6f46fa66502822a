"""Helpers for the study-site tests: build a fixture exam's site, serve it on loopback, run axe in a page.

The fixture exam has every question type (tests/fixtures/objectives/site_every_type.yaml), terms enough for
generated questions, and hostile text; it never depends on the sample in sources/.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from pipeline import build
from pipeline.cli import main
from pipeline.render import RENDERERS
from tests.conftest import FIXTURES, ROOT, TODAY, write_found_lock

OBJECTIVES = ("valid", "terms_four", "site_every_type")
AXE_JS = ROOT / "node_modules" / "axe-core" / "axe.min.js"


def build_site(base: Path, *objectives: str) -> Path:
    """Sources for exam `demo` under `base`, built with --today TODAY; returns OUT/demo."""
    folder = base / "sources" / "demo"
    folder.mkdir(parents=True)
    shutil.copy(FIXTURES / "exams" / "valid.yaml", folder / "exam.yaml")
    for name in objectives or OBJECTIVES:
        shutil.copy(FIXTURES / "objectives" / f"{name}.yaml", folder / f"{name}.yaml")
    write_found_lock(folder)
    with pytest.MonkeyPatch.context() as patch:  # the bank (for comparing orders) and the site: no PDF or deck to wait for
        patch.setattr(build, "RENDERERS", {name: RENDERERS[name] for name in ("bank", "site")})
        code = main(["build", "--sources", str(base / "sources"), "--out", str(base / "out"), "--today", TODAY])
    assert code == 0
    return base / "out" / "demo"


def missing(why: str) -> None:
    """Skip on a developer's machine, fail in CI: a missing install step must not pass quietly."""
    if os.environ.get("CI"):
        pytest.fail(why)
    pytest.skip(why)


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # keep the test output clean
        pass


@contextlib.contextmanager
def serve(folder: Path):
    """http://127.0.0.1:<port>/ serving `folder`, in a thread, for as long as the block runs."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def axe_serious(page) -> list[tuple[str, str, int]]:
    """axe-core's serious and critical violations on the page: (rule id, impact, node count).

    Injected with page.evaluate, not add_script_tag: that adds an inline <script>, which the page's CSP blocks."""
    if not AXE_JS.exists():
        missing(f"{AXE_JS} is missing: run `npm ci` (make test does)")
    page.evaluate(AXE_JS.read_text(encoding="utf-8") + "\n;0")
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [(v["id"], v["impact"], len(v["nodes"])) for v in result["violations"] if v["impact"] in ("serious", "critical")]
