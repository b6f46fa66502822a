"""The documentation site builds with mkdocs --strict (no warning: no broken link, anchor or page outside the
nav), a planted broken link fails it, it loads nothing from another host and searches from file:// in chromium,
and the README fits its role: at most 150 lines, linking every page."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT
from tests.kit.studysite import missing

DOCS = ROOT / "docs"


def _build(project: Path, site: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)], cwd=project,
                          env=env, capture_output=True, text=True, timeout=600)


def _copy(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    shutil.copy(ROOT / "mkdocs.yml", project / "mkdocs.yml")
    shutil.copytree(DOCS, project / "docs")
    return project


def test_the_site_builds_strict_with_no_warning(tmp_path):
    done = _build(_copy(tmp_path), tmp_path / "site")
    assert done.returncode == 0, done.stderr
    assert "WARNING" not in done.stderr, done.stderr
    pages = sorted(p.relative_to(DOCS).with_suffix(".html") for p in DOCS.rglob("*.md"))
    assert len(pages) > 20 and all((tmp_path / "site" / page).is_file() for page in pages)
    home = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "fonts.googleapis.com" not in home  # nothing loaded from another host
    assert re.search(r'href="getting-started/install\.html"', home)


def test_the_site_loads_nothing_from_another_host_and_searches_from_file(tmp_path, browser):
    site = tmp_path / "site"
    assert _build(_copy(tmp_path), site).returncode == 0
    for page in site.rglob("*.html"):  # scripts, styles and images: only the site's own files
        text = page.read_text(encoding="utf-8")
        assert not re.search(r'<(?:script|link|img)[^>]+(?:src|href)="(?:https?:)?//', text), page
    context = browser.new_context(viewport={"width": 375, "height": 800})
    outside = []
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:") else (outside.append(route.request.url), route.abort()))
    page = context.new_page()
    page.goto((site / "stats.html").as_uri())
    page.keyboard.press("s")  # Material's shortcut: focus search
    page.keyboard.type("facility")
    page.wait_for_selector(".md-search-result__item")
    assert page.locator(".md-search-result__item").count() >= 1 and outside == []
    context.close()


def test_the_search_shim_is_npms_file_at_the_pinned_version():
    """docs/assets/iframe-worker/ holds npm's iframe-worker shim and licence byte for byte (make test runs npm ci)."""
    pinned = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))["devDependencies"]["iframe-worker"]
    npm = ROOT / "node_modules" / "iframe-worker"
    if not npm.is_dir():
        missing("node_modules/iframe-worker is not installed: make test runs npm ci")
    assert json.loads((npm / "package.json").read_text(encoding="utf-8"))["version"] == pinned
    committed = DOCS / "assets" / "iframe-worker"
    assert (committed / "shim.js").read_bytes() == (npm / "shim" / "index.js").read_bytes()
    assert (committed / "LICENSE").read_bytes() == (npm / "LICENSE").read_bytes()


def test_a_broken_link_fails_the_build(tmp_path):
    project = _copy(tmp_path)
    page = project / "docs" / "troubleshooting.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nSee [the missing page](no-such-page.md).\n", encoding="utf-8")
    done = _build(project, tmp_path / "site")
    assert done.returncode != 0 and "no-such-page.md" in done.stderr


def test_a_page_outside_the_nav_fails_the_build(tmp_path):
    project = _copy(tmp_path)
    (project / "docs" / "orphan.md").write_text("# Orphan\n", encoding="utf-8")
    done = _build(project, tmp_path / "site")
    assert done.returncode != 0 and "orphan.md" in done.stderr


def test_the_readme_fits_a_screen_or_three_and_links_every_page():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    linked = set(re.findall(r"\]\((docs/[^)#]+\.md)\)", text))
    pages = {str(p.relative_to(ROOT)) for p in DOCS.rglob("*.md")}
    assert pages and pages == linked, sorted(pages ^ linked)
    assert "pip install" in text and "make build" in text and "exam-prep new exam" in text  # install and the quick start
