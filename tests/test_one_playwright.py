"""One Playwright per pytest process: only tests/kit/browser.py starts it (conftest's session `browser` fixture).

A test module that started its own `sync_playwright()` while the session's was open failed with "Playwright
Sync API inside the asyncio loop" whenever a browser test had run before it in the same process (issue 31:
test_site_browser.py then test_anki_cards_read.py). Checked on the real tests, and shown to fail on a planted one."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import ROOT

HOME = Path("kit") / "browser.py"


def _starters(folder: Path) -> list[str]:
    """Files under `folder`, other than the kit's, that name sync_playwright or async_playwright."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        nodes = list(ast.walk(ast.parse(path.read_text(encoding="utf-8"))))
        names = {node.id for node in nodes if isinstance(node, ast.Name)}
        names |= {alias.name for node in nodes if isinstance(node, ast.ImportFrom) for alias in node.names}
        if names & {"sync_playwright", "async_playwright"} and path.relative_to(folder) != HOME:
            found.append(str(path.relative_to(folder)))
    return found


def test_only_the_kit_starts_playwright(tmp_path):
    assert (ROOT / "tests" / HOME).is_file() and "sync_playwright" in (ROOT / "tests" / HOME).read_text(encoding="utf-8")
    assert _starters(ROOT / "tests") == []
    (tmp_path / "test_planted.py").write_text("from playwright.sync_api import sync_playwright\n\nwith sync_playwright() as p:\n    pass\n")
    (tmp_path / "kit").mkdir()
    (tmp_path / HOME).write_text("from playwright.sync_api import sync_playwright\n")
    assert _starters(tmp_path) == ["test_planted.py"]
