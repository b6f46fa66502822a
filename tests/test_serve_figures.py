"""`serve` rebuilds and reloads the open page when an image's bytes change, and serves the new file: the
real command in a subprocess, Debian's chromium driven by Playwright (as tests/test_serve.py)."""

from __future__ import annotations

import hashlib
import shutil
import urllib.request

from tests.conftest import FIXTURES, write_found_lock
from tests.kit.figures import png
from tests.kit.serve import URL, Serving, make_project


def test_an_image_edit_reloads_the_page_with_the_new_file(tmp_path, browser):
    project = make_project(tmp_path)
    folder = project / "sources" / "demo"
    shutil.copy(FIXTURES / "figures" / "figures.yaml", folder / "figures.yaml")
    shutil.copytree(FIXTURES / "figures" / "figures", folder / "figures")
    png(folder / "figures" / "timeline.png", seed=1)
    write_found_lock(folder)
    serving = Serving(project)
    try:
        serving.url = serving.wait_for(URL)[1]
        context = browser.new_context()
        context.set_default_timeout(60_000)
        page = context.new_page()
        loads = []
        page.on("load", lambda: loads.append(page.url))
        page.goto(serving.url + "objective-1-3.html")
        timeline = "() => [...document.images].map(i => i.src).filter(s => s.includes('/media/figures/timeline-'))"
        [image] = set(page.evaluate(timeline))  # shown twice, one file; the site names its copy by the content (media/figures/timeline-<sha12>.png)
        before = hashlib.sha256(urllib.request.urlopen(image, timeout=30).read()).hexdigest()
        assert before[:12] in image
        with page.expect_event("load"):
            png(folder / "figures" / "timeline.png", seed=2)
        assert len(loads) == 2  # the first visit, and the reload the image edit caused
        [image_now] = set(page.evaluate(timeline))
        after = hashlib.sha256(urllib.request.urlopen(image_now, timeout=30).read()).hexdigest()
        assert image_now != image and after[:12] in image_now
        assert before != after == hashlib.sha256((folder / "figures" / "timeline.png").read_bytes()).hexdigest()
        assert page.evaluate("() => [...document.images].every(i => i.complete && i.naturalWidth > 0)")
        context.close()
        assert serving.stop() == 0
    finally:
        if serving.process.poll() is None:
            serving.process.kill()
            serving.process.wait(10)
