"""`serve` in a real browser: the real command in a subprocess, Debian's chromium driven by Playwright.

An edit of a source reloads the open page with the change; a broken edit shows the error in a banner and
the server stays up; fixing it clears the banner. The built site on disk never holds the reload script.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import urllib.request

import pytest

from pipeline.serve.inject import inject
from tests.conftest import ROOT
from tests.kit.serve import URL, Serving, make_project


@pytest.fixture
def served(tmp_path):
    project = make_project(tmp_path)
    serving = Serving(project)
    serving.url = serving.wait_for(URL)[1]
    yield project, serving
    if serving.process.poll() is None:
        serving.process.kill()
        serving.process.wait(10)


def test_an_edit_reloads_the_page_and_a_broken_edit_shows_the_banner(served, browser):
    project, serving = served
    source = project / "sources" / "demo" / "valid.yaml"
    context = browser.new_context()
    context.set_default_timeout(60_000)
    page = context.new_page()
    loads = []
    page.on("load", lambda: loads.append(page.url))
    page.goto(serving.url + "objective-1-1.html")
    assert "Basics of things" in page.locator("h1").inner_text()

    # Wait for the reload's own load event, not only for the new heading: the heading can be on screen
    # before the load event reaches this process (CI saw the count read 1 in that gap).
    with page.expect_event("load"):
        source.write_text(source.read_text(encoding="utf-8").replace("title: Basics of things", "title: Basics of edited things"), encoding="utf-8")
    page.locator("h1", has_text="Basics of edited things").wait_for()  # a locator: the page's CSP forbids eval
    assert len(loads) == 2  # the first visit, and the reload the rebuild caused

    source.write_text(source.read_text(encoding="utf-8") + "broken: [\n", encoding="utf-8")
    banner = page.locator("#serve-banner")
    banner.wait_for()
    text = banner.inner_text()
    assert "1 error(s) in the sources of demo" in text and "sources/demo/valid.yaml:" in text and "[yaml]" in text, text
    assert serving.process.poll() is None
    assert "Basics of edited things" in page.locator("h1").inner_text()  # the last good build is still the page
    page.reload()  # a page opened while the build is broken shows the banner too
    page.locator("#serve-banner").wait_for()

    source.write_text(source.read_text(encoding="utf-8").replace("broken: [\n", ""), encoding="utf-8")
    page.locator("#serve-banner").wait_for(state="detached")
    assert serving.stop() == 0
    assert "serve: stopped" in serving.lines[-1]
    context.close()


def test_the_built_site_never_holds_the_reload_script(served):
    project, serving = served
    pages = list((project / "build" / "demo" / "site").rglob("*.html"))
    assert pages and not [p for p in pages if "livereload" in p.read_text(encoding="utf-8")]
    with urllib.request.urlopen(serving.url + "index.html", timeout=30) as answer:
        served_page = answer.read().decode()
    assert '<script src="/__serve/livereload.js"' in served_page
    assert "connect-src &#x27;self&#x27;" in served_page or "connect-src 'self'" in served_page


def test_injection_keeps_the_policy_and_adds_only_connections_to_self():
    page = ('<html><head><meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; script-src &#39;self&#39;">'
            "</head><body></body></html>")
    out = inject(page, 7)
    policy = re.search(r'content="([^"]*)"', out)[1]
    assert policy == "default-src &#x27;none&#x27;; script-src &#x27;self&#x27;; connect-src &#x27;self&#x27;"
    assert out.index('data-build="7"') < out.index("</head>")


def test_a_taken_port_is_a_usage_error(tmp_path):
    project = make_project(tmp_path)
    with socket_on_loopback() as port:
        done = subprocess.run([sys.executable, "-m", "pipeline", "serve", "--port", str(port)], cwd=project,
                              env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert f"error: cannot serve on 127.0.0.1:{port}" in done.stderr and "choose another with --port N" in done.stderr


class socket_on_loopback:  # noqa: N801 - used as a context manager
    def __enter__(self) -> int:
        import socket

        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen()
        return self.sock.getsockname()[1]

    def __exit__(self, *exc) -> None:
        self.sock.close()
