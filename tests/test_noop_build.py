"""No-op builds stop after hashing file bytes; an output's code digest covers its own imports only.

Builds run in child processes from a copy of the project (pipeline/, schema/, templates/), so a test can
edit a renderer's module the way a developer would and see which outputs the next build rewrites. What
a build loaded is read off `sys.modules` at its end: a no-op build must not have imported the checks,
the view or any renderer.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.publish.codedeps import closure
from pipeline.render import RENDERERS, output
from tests.conftest import FULL, ROOT, TODAY

PROBE = ("pipeline.check.validate", "pipeline.derive.build", "pipeline.build", "pipeline.view.model", "pydantic", "weasyprint", "genanki")
SCRIPT = (
    "import sys\nfrom pipeline.cli import main\ncode = main(sys.argv[1:])\n"
    f"print('loaded:', ','.join(m for m in {PROBE!r} if m in sys.modules), file=sys.stderr)\nsys.exit(code)\n"
)


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    """A copy of the project's code and templates, and of the complete fixture exam, to build from and edit."""
    root = tmp_path_factory.mktemp("project")
    for folder in ("pipeline", "schema", "templates"):
        shutil.copytree(ROOT / folder, root / folder, ignore=shutil.ignore_patterns("__pycache__"))
    for pinned in ("requirements.txt", "package.json", "package-lock.json"):
        shutil.copy(ROOT / pinned, root / pinned)
    shutil.copytree(FULL, root / "sources")
    return root


def _build(project: Path, *extra: str) -> tuple[int, list[str], list[str]]:
    """Exit code, the outputs written (file names) and the modules of PROBE the build loaded."""
    args = ["build", "--sources", "sources", "--out", "out", "--today", TODAY, "-v", *extra]  # -v: a line per file written
    done = subprocess.run([sys.executable, "-c", SCRIPT, *args], cwd=project, capture_output=True, text=True, timeout=600)
    written = [line.removeprefix("wrote ").split("/", 2)[-1] for line in done.stderr.splitlines() if line.startswith("wrote ")]
    loaded = next(line for line in done.stderr.splitlines() if line.startswith("loaded:")).removeprefix("loaded:").strip()
    return done.returncode, written, [m for m in loaded.split(",") if m]


def test_noop_build_loads_nothing_and_an_edit_rebuilds_what_it_changes(project):
    code, written, loaded = _build(project)
    assert code == 0 and "study-guide.pdf" in written and "bank.json" in written
    assert "pipeline.derive.build" in loaded  # the cold build did the work

    code, written, loaded = _build(project)
    assert (code, written, loaded) == (0, [], [])  # nothing read past the bytes' hash

    objective = next((project / "sources").rglob("6.2*.yaml"))
    objective.write_text(objective.read_text(encoding="utf-8") + "# a comment: the view does not change\n", encoding="utf-8")
    code, written, loaded = _build(project)
    assert (code, written) == (0, []) and "pipeline.check.validate" in loaded  # revalidated, nothing rewritten
    assert _build(project)[1:] == ([], [])  # and the next build is a no-op again

    (project / "out" / "nca-genm" / "bank.json").unlink()
    assert _build(project)[1] == ["bank.json"]  # a missing output is not a no-op

    code, written, _ = _build(project, "--paper", "letter")  # another option: the full path
    assert code == 0 and "pipeline.check.validate" in _build(project, "--paper", "a4")[2]


def test_a_noop_build_with_a_settings_file_checks_it_only_when_its_bytes_change(project):
    """pipeline.toml is checked through pydantic models: a no-op hit (these bytes, this code, built before) needs
    no check, so it loads no pydantic; an edit goes the full path, where a broken setting is exit 2."""
    settings = project / "pipeline.toml"
    try:
        settings.write_text('strict = false\n[exams.nca-genm]\npaper = "a4"\n', encoding="utf-8")
        code, _, loaded = _build(project)
        assert code == 0 and "pydantic" in loaded  # checked: the fingerprint is new
        assert _build(project) == (0, [], [])  # the same bytes: nothing checked, nothing loaded
        settings.write_text('strict = false\n[exams.nca-genm]\npaper = "a5"\n', encoding="utf-8")
        code, written, loaded = _build(project)
        assert (code, written) == (2, []) and "pydantic" in loaded
    finally:
        settings.unlink()


def test_an_edit_to_one_renderers_module_rebuilds_that_output_only(project):
    _build(project)
    gift = project / "pipeline" / "render" / "lms" / "gift.py"
    gift.write_text(gift.read_text(encoding="utf-8") + "\n# an edit to the GIFT export's code\n", encoding="utf-8")
    code, written, loaded = _build(project)
    assert (code, written) == (0, ["questions.gift"])
    assert "weasyprint" not in loaded  # the guide was not rendered


def test_an_outputs_code_is_its_modules_import_closure():
    files = {name: {str(p.relative_to(ROOT)) for p in closure(output(entry).module)} for name, entry in RENDERERS.items()}
    assert "pipeline/render/anki/deck.py" in files["deck"] and "pipeline/render/anki/card_fields.py" in files["deck"]
    assert "pipeline/render/__init__.py" in files["deck"]  # parent packages run first
    for name, names in files.items():
        others = [f for f in names if f.startswith("pipeline/render/anki/")]
        assert (name == "deck") == bool(others), name
    assert "pipeline/render/lms/moodle.py" in files["gift"]  # gift imports moodle's category paths
    assert "pipeline/render/lms/gift.py" not in files["moodle"]
