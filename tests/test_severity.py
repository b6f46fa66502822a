"""Per-check severity: exam.yaml's `checks:` sets a code to error, warning or off; --strict still raises warnings."""

from __future__ import annotations

from tests.conftest import TODAY

STEM_LINE = "sources/demo/valid.yaml:17:11: {}: questions[0].stem: the same stem is already used at sources/demo/duplicate_stem.yaml:13 [duplicate-stem]"


def _with_checks(sources, checks: str) -> None:
    exam = sources / "demo" / "exam.yaml"
    text = exam.read_text()
    exam.write_text(text + (checks if text.rstrip().splitlines()[-1].startswith("  ") and "\nchecks:\n" in text else f"checks:\n{checks}"))


def validate(run_cli, sources, *extra):
    return run_cli("validate", "--sources", "sources", "--today", TODAY, *extra, cwd=sources.parent)


def test_a_warning_can_be_made_an_error(run_cli, make_sources):
    sources = make_sources("valid", "duplicate_stem")
    assert validate(run_cli, sources).lines == [STEM_LINE.format("warning")]
    _with_checks(sources, "  duplicate-stem: error\n")
    result = validate(run_cli, sources)
    assert (result.code, result.lines) == (1, [STEM_LINE.format("error")])


def test_a_check_can_be_turned_off_and_strict_leaves_it_off(run_cli, make_sources):
    sources = make_sources("valid", "duplicate_stem")
    _with_checks(sources, "  duplicate-stem: 'off'\n")
    assert (validate(run_cli, sources).code, validate(run_cli, sources).lines) == (0, [])
    assert (validate(run_cli, sources, "--strict").code, validate(run_cli, sources, "--strict").lines) == (0, [])


def test_an_error_can_be_lowered_to_a_warning_then_strict_raises_it(run_cli, make_sources):
    sources = make_sources("valid", "answer_not_in_options")
    _with_checks(sources, "  question-answer: warning\n")
    relaxed = validate(run_cli, sources)
    assert relaxed.code == 0 and [line.split(": ")[1] for line in relaxed.lines] == ["warning"]
    assert validate(run_cli, sources, "--strict").code == 1


def test_an_unknown_code_is_an_error_at_its_key_with_a_suggestion(run_cli, make_sources):
    sources = make_sources("valid")
    _with_checks(sources, "  duplicate-stems: error\n")
    result = validate(run_cli, sources)
    assert result.code == 1
    assert result.lines == ["sources/demo/exam.yaml:14:3: error: checks.duplicate-stems: no check has this code; did you mean 'duplicate-stem'? "
                            "(codes: the documentation's Diagnostic codes page) [check-config]"]


def test_schema_errors_cannot_be_configured(run_cli, make_sources):
    sources = make_sources("valid")
    _with_checks(sources, "  schema: 'off'\n")
    result = validate(run_cli, sources)
    assert result.code == 1 and "checks.schema: no check has this code" in result.lines[0]


def test_every_code_a_check_emits_is_listed():
    """codes.py is the table authors configure from: every code string the checks pass along is in it."""
    import re

    from pipeline.check.codes import CODES
    from pipeline.paths import ROOT

    folders = [ROOT / "pipeline" / name for name in ("check", "load", "questions")] + [ROOT / "pipeline" / "citations" / "lockcheck.py"]
    files = [f for folder in folders for f in ([folder] if folder.is_file() else folder.rglob("*.py"))]
    used = set()
    for path in files:
        if path.name != "codes.py":
            used |= set(re.findall(r'"((?:yaml|schema|citation|question|duplicate|section|review|uncited|cloze|check)(?:-[a-z]+)*)"(?:\)|$)', path.read_text(), flags=re.M))
    assert {"yaml", "schema", "question-answer", "review-stale", "citation-unchecked"} <= used
    assert used <= set(CODES), sorted(used - set(CODES))
