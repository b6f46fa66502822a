"""Debian's chromium driven by Playwright (never a downloaded browser), one Playwright per pytest process.

Playwright's sync API runs its own asyncio loop for as long as its context is open, and a second
`sync_playwright()` started while the first is open fails ("Playwright Sync API inside the asyncio loop").
So every test that needs a browser takes conftest's session-scoped `browser` fixture, which comes from
`chromium()` here; no test module starts Playwright by itself (tests/test_one_playwright.py checks it).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# No sandbox: tests run as root; no background networking: Chromium would otherwise call home.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@contextmanager
def chromium() -> Iterator[object]:
    """A launched chromium; leaving the block closes it and then stops Playwright, which ends its loop."""
    from tests.kit.studysite import missing

    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("playwright is not installed: make test installs requirements.txt")
    executable = shutil.which(CHROMIUM)
    if not executable:
        missing(f"{CHROMIUM} is not installed: make test installs Debian's chromium")
    with sync_playwright() as p:  # its __exit__ stops the driver and closes the loop, even after a failed launch
        launched = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS, timeout=30_000)
        try:
            yield launched
        finally:
            launched.close()
