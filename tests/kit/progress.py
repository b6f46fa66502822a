"""The practice site as the browser tests use it: built once from the site fixtures with the mock pool, its bank
by question id, and the learner's progress as the site keeps it in localStorage (its key, read back)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from schema.progress import PROGRESS_VERSION
from tests.kit.studysite import OBJECTIVES, build_site

DAY1 = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.UTC)  # the tests' first day, noon UTC
KEY = f"exam-prep:demo:progress-{PROGRESS_VERSION}"  # where the site of exam `demo` keeps the progress


def practice_site(tmp_path_factory) -> Path:
    """The site's fixture exam (the mock exam's settings, its pool of held-out questions) built once."""
    return build_site(tmp_path_factory.mktemp("site"), *OBJECTIVES, "mock_pool", exam="mock")


def bank_by_id(built: Path) -> dict[str, dict]:
    return {q["id"]: q for q in json.loads((built / "bank.json").read_text(encoding="utf-8"))["questions"]}


def stored(page) -> dict | None:
    """The progress the page's site has stored, parsed; None when there is none."""
    return page.evaluate(f"() => JSON.parse(localStorage.getItem({json.dumps(KEY)}) || 'null')")
