"""Shared test helpers: build a sources folder from scenario fixtures, copy the complete fixture exam, run the CLI."""

from __future__ import annotations

import datetime as dt
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from pipeline.citations.lock import CitationLock, LockEntry
from pipeline.cli import main
from pipeline.errors import SourceError
from pipeline.load.yamlsource import load_yaml

try:  # hypothesis fails an example slower than 200 ms by default: a timed assertion on a shared machine
    from hypothesis import settings

    settings.register_profile("shared-machine", deadline=None)
    settings.load_profile("shared-machine")
except ImportError:  # pinned in requirements.txt; only the property tests need it
    pass

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
FULL = FIXTURES / "full" / "sources"  # a sources folder with one complete exam (a frozen copy of the first sample): tests never read sources/
SOURCES = ROOT / "sources"  # only tests/test_sources.py reads it
TODAY = "2026-11-29"


@dataclass
class Run:
    code: int
    out: str
    err: str

    @property
    def lines(self) -> list[str]:
        return self.out.splitlines()


@pytest.fixture
def run_cli(capsys, monkeypatch):
    """Run `python -m pipeline ARGS` in-process from `cwd`, so printed paths are relative to it."""

    def run(*args: str, cwd: Path | None = None) -> Run:
        if cwd is not None:
            monkeypatch.chdir(cwd)
        code = main(list(args))
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    return run


def cited_pairs(folder: Path) -> list[tuple[str, str]]:
    """Every (url, quote) cited in the readable YAML files of an exam folder."""
    pairs = []
    for path in sorted(folder.glob("*.yaml")):
        try:
            data = load_yaml(path).data
        except SourceError:
            continue
        for point in (data.get("key_points") or []) if isinstance(data, dict) else []:
            for citation in (point.get("citations") or []) if isinstance(point, dict) else []:
                if isinstance(citation, dict) and isinstance(citation.get("url"), str) and isinstance(citation.get("quote"), str):
                    pairs.append((citation["url"], citation["quote"]))
    return pairs


def write_found_lock(folder: Path, checked: str = TODAY) -> None:
    """A lock saying every quote of the folder was found on `checked`: the scenario fixtures are about the
    offline checks, and their example.com quotes stand for quotes an audit has confirmed."""
    day = dt.date.fromisoformat(checked)
    entries = {pair: LockEntry(*pair, status="found", checked=day, match="exact", score=1.0) for pair in cited_pairs(folder)}
    CitationLock(folder / "citations.lock.json", entries).save()


@pytest.fixture
def make_sources(tmp_path):
    """A sources folder with one exam `demo`: exam.yaml from fixtures/exams, objective files from fixtures/objectives,
    and (unless `audited=False`) a citation lock in which every quote was found on TODAY."""

    def make(*objectives: str, exam: str = "valid", audited: bool = True) -> Path:
        folder = tmp_path / "sources" / "demo"
        folder.mkdir(parents=True)
        shutil.copy(FIXTURES / "exams" / f"{exam}.yaml", folder / "exam.yaml")
        for name in objectives:
            shutil.copy(FIXTURES / "objectives" / f"{name}.yaml", folder / f"{name}.yaml")
        if audited:
            write_found_lock(folder)
        return tmp_path / "sources"

    return make


@pytest.fixture
def full_copy(tmp_path) -> Path:
    """A copy of the complete fixture exam's sources folder, to break on purpose."""
    target = tmp_path / "sources"
    shutil.copytree(FULL, target)
    return target


def add_exam(sources: Path, exam_id: str, *objectives: str, exam_file: str = "exam.yaml", audited: bool = True) -> Path:
    """Another exam in `sources`: fixtures/exams/valid.yaml under the id `exam_id`, with these objective fixtures."""
    folder = sources / exam_id
    folder.mkdir(parents=True)
    text = (FIXTURES / "exams" / "valid.yaml").read_text(encoding="utf-8").replace("id: demo", f"id: {exam_id}", 1)
    (folder / exam_file).write_text(text, encoding="utf-8")
    for name in objectives:
        shutil.copy(FIXTURES / "objectives" / f"{name}.yaml", folder / f"{name}.yaml")
    if audited:
        write_found_lock(folder)
    return folder


# Tests a developer can run by part (`make test-fast` is `-m "not browser and not slow"`). `browser` goes on every
# test that uses a browser fixture; `slow` on the modules below, whose tests render a real PDF (weasyprint) or an
# Anki collection, run make, pip, the example sandbox or SIGKILLed builds in subprocesses, or draw many
# hypothesis examples, and on tests marked `@pytest.mark.slow` one by one. A new module of such tests goes here.
# The fast set must still call into every module of pipeline/: `pytest -m "not browser and not slow" -p tests.kit.reach`
# lists the modules it never calls into (tested only by slow or browser tests, or not at all).
SLOW_MODULES = frozenset({
    "test_anki_cards_read", "test_bench_parts", "test_drills_read", "test_examples_outputs", "test_examples_requirements",
    "test_examples_runs", "test_examples_sandbox", "test_exports_property", "test_feedback_link", "test_formulas", "test_guide_answer_key",
    "test_guide_book", "test_guide_chunks", "test_hostile_build", "test_hostile_sources", "test_install", "test_match_properties",
    "test_mock_rehearsal", "test_new_types_in_outputs", "test_noop_build", "test_numeric", "test_readme", "test_render_anki",
    "test_render_pdf", "test_rich_text", "test_run_as", "test_serve_hostile", "test_stats", "test_stats_layouts",
    "test_stats_property", "test_synthetic", "test_variants",
    "test_variants_outputs",
})


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):  # directly or through page/context fixtures built on it
            item.add_marker(pytest.mark.browser)
        if item.module is not None and item.module.__name__.rsplit(".", 1)[-1] in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def browser():
    """Debian's chromium driven by Playwright, one for the whole session: the only Playwright a pytest process
    starts (tests/kit/browser.py says why), stopped at the session's end."""
    from tests.kit.browser import chromium

    with chromium() as launched:
        yield launched
