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


def build_site(base: Path, *objectives: str, exam: str = "valid", edit=None) -> Path:
    """Sources for exam `demo` under `base` (exam.yaml from fixtures/exams/<exam>.yaml), built with --today TODAY;
    returns OUT/demo. `edit(folder)` may change the copied sources before the build."""
    folder = base / "sources" / "demo"
    folder.mkdir(parents=True)
    shutil.copy(FIXTURES / "exams" / f"{exam}.yaml", folder / "exam.yaml")
    for name in objectives or OBJECTIVES:
        shutil.copy(FIXTURES / "objectives" / f"{name}.yaml", folder / f"{name}.yaml")
    if edit:
        edit(folder)
    write_found_lock(folder)
    with pytest.MonkeyPatch.context() as patch:  # the bank (for comparing orders) and the site: no PDF or deck to wait for
        patch.setattr(build, "RENDERERS", {name: RENDERERS[name] for name in ("bank", "site")})
        code = main(["build", "--sources", str(base / "sources"), "--out", str(base / "out"), "--today", TODAY])
    assert code == 0
    return base / "out" / "demo"


@contextlib.contextmanager
def guarded_context(browser, prefixes: tuple[str, ...], **options):
    """A fresh context (empty storage) in which every request outside `prefixes` is aborted and recorded in `.offsite`."""
    ctx = browser.new_context(**options)
    ctx.set_default_timeout(10_000)
    ctx.offsite = []

    def guard(route):
        if route.request.url.startswith(prefixes):
            return route.continue_()
        ctx.offsite.append(route.request.url)
        return route.abort()

    ctx.route("**/*", guard)
    try:
        yield ctx
    finally:
        ctx.close()


def page_of(context):
    """A page that records script errors and console errors in `.errors`."""
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on("console", lambda message: message.type == "error" and page.errors.append(message.text))
    return page


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


def axe_serious(page, preload: bool = True) -> list[tuple[str, str, int]]:
    """axe-core's serious and critical violations on the page: (rule id, impact, node count).

    Injected with page.evaluate, not add_script_tag: that adds an inline <script>, which the page's CSP blocks.
    `preload=False` keeps axe from fetching the style sheets itself (the CSP refuses it, and logs an error)."""
    if not AXE_JS.exists():
        missing(f"{AXE_JS} is missing: run `npm ci` (make test does)")
    page.evaluate(AXE_JS.read_text(encoding="utf-8") + "\n;0")
    result = page.evaluate("p => axe.run(document, {resultTypes: ['violations'], preload: p})", preload)
    return [(v["id"], v["impact"], len(v["nodes"])) for v in result["violations"] if v["impact"] in ("serious", "critical")]


def fill_answer(form, q: dict, right: bool) -> None:
    """Fill in a question's form from the bank: the right answer, or a wrong one, by the shape of its part."""
    part = q["parts"][0]
    if part["shape"] == "choices":
        chosen = [o["id"] for o in part["options"] if o["correct"] == right][:None if part["multiple"] and right else 1]
        for box in form.locator("input[type=checkbox]").all():
            box.uncheck()
        for option_id in chosen:
            form.locator(f"input[value='{option_id}']").check()
    elif part["shape"] == "text":
        form.locator("input[type=text], textarea").fill((part["accepted"] or ["My own words"])[0] if right else "something else")
    elif part["shape"] == "pairs":
        ids = [p["answer_id"] for p in part["prompts"]]
        for prompt, answer in zip(part["prompts"], ids if right else ids[1:] + ids[:1], strict=True):
            form.locator(f"select[data-pair='{prompt['id']}']").select_option(answer)
    elif part["shape"] == "numeric":
        form.locator("input[type=text]").fill(part["value_text"] if right else str(part["high"] + 1))
    elif part["shape"] == "cloze":  # every gap right, or the first one wrong
        for n, gap in enumerate(part["gaps"]):
            form.locator(f"input[data-gap='{gap['id']}']").fill(gap["accepted"][0] if right or n else "something else")
    else:
        order = part["correct_order"] if right else part["correct_order"][::-1]
        for item in part["items"]:
            form.locator(f"select[data-item='{item['id']}']").select_option(str(order.index(item["id"]) + 1))


def graded(q: dict) -> bool:
    """Whether the site grades the question itself (a written answer without accepted answers is the learner's to judge)."""
    return all(p["shape"] != "text" or p["accepted"] for p in q["parts"])


def tab_to(page, selector: str, limit: int = 200) -> None:
    """Keyboard only: press Tab until the focus is on `selector` (a failure when it never gets there)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return
    pytest.fail(f"Tab never reached {selector}")
