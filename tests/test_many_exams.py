"""Several exams in one sources folder: each is found, checked and built on its own, none in silence."""

from __future__ import annotations

import shutil

from tests.conftest import TODAY, add_exam


def validate(run_cli, sources, *extra):
    return run_cli("validate", "--sources", "sources", "--today", TODAY, *extra, cwd=sources.parent)


def build(run_cli, sources, *extra):
    return run_cli("build", "--sources", "sources", "--today", TODAY, "--out", "out", *extra, cwd=sources.parent)


def test_two_exams_with_one_id_are_an_error_naming_both_files(run_cli, make_sources):
    sources = make_sources("valid")
    other = add_exam(sources, "copy", "valid")
    (other / "exam.yaml").write_text((other / "exam.yaml").read_text().replace("id: copy", "id: demo"))
    result = validate(run_cli, sources)
    assert result.code == 1
    assert ("sources/copy/exam.yaml:1:5: error: id: exam id 'demo' is also the id of sources/demo/exam.yaml:1; "
            "give each exam its own id (outputs go to build/<id>/) [exam-duplicate-id]") in result.lines
    assert ("sources/demo/exam.yaml:1:5: error: id: exam id 'demo' is also the id of sources/copy/exam.yaml:1; "
            "give each exam its own id (outputs go to build/<id>/) [exam-duplicate-id]") in result.lines


def test_objective_files_without_an_exam_file_are_an_error(run_cli, make_sources):
    sources = make_sources("valid")
    orphan = sources / "orphan"
    orphan.mkdir()
    shutil.copy(sources / "demo" / "valid.yaml", orphan / "1.1.yaml")
    result = validate(run_cli, sources)
    assert result.code == 1
    assert ("sources/orphan/1.1.yaml:1:1: error: objective files but no exam file in orphan/: add orphan/exam.yaml "
            "(`exam-prep new exam ID` writes one) [exam-missing]") in result.lines


def test_exam_yml_is_accepted(run_cli, make_sources):
    sources = make_sources("valid")
    add_exam(sources, "second", "valid", exam_file="exam.yml")
    result = validate(run_cli, sources)
    assert (result.code, result.lines) == (0, [])
    assert "validate: 2 exam(s), 2 objective(s)" in result.err


def test_exam_yaml_and_exam_yml_together_are_an_error(run_cli, make_sources):
    sources = make_sources("valid")
    shutil.copy(sources / "demo" / "exam.yaml", sources / "demo" / "exam.yml")
    result = validate(run_cli, sources)
    assert result.code == 1
    assert "sources/demo/exam.yml:1:1: error: two exam files in demo/ (exam.yaml and exam.yml); keep one [exam-twice]" in result.lines


def test_an_exam_without_objectives_is_an_error(run_cli, make_sources):
    sources = make_sources("valid")
    add_exam(sources, "empty")
    result = validate(run_cli, sources)
    assert result.code == 1
    assert ("sources/empty/exam.yaml:1:1: error: exam 'empty' has no objective files; add one "
            "(`exam-prep new objective empty NUMBER TITLE` writes one) [exam-empty]") in result.lines


def test_exam_option_checks_only_the_exams_named(run_cli, make_sources):
    sources = make_sources("valid")
    add_exam(sources, "broken", "misspelt_key")
    add_exam(sources, "third", "valid")
    assert validate(run_cli, sources).code == 1
    result = validate(run_cli, sources, "--exam", "demo", "--exam", "third")
    assert (result.code, result.lines) == (0, [])
    assert "validate: 2 exam(s), 2 objective(s): 0 error(s), 0 warning(s)" in result.err
    unknown = validate(run_cli, sources, "--exam", "thrid")
    assert unknown.code != 0
    assert "error: no exam 'thrid' in sources; did you mean 'third'? (exams: broken, demo, third)" in unknown.err


def test_one_exams_errors_do_not_stop_the_others_outputs(run_cli, make_sources):
    sources = make_sources("valid")
    add_exam(sources, "broken", "misspelt_key")
    result = build(run_cli, sources)
    assert result.code == 1
    outputs = {p.name for p in (sources.parent / "out" / "demo").iterdir()}
    assert {"bank.json", "deck-changes.json", "deck.apkg", "study-guide.pdf"} <= outputs
    assert not (sources.parent / "out" / "broken").exists()
    written = [line for line in result.err.splitlines() if line.startswith("demo: wrote guide, deck, bank, site, moodle, gift, qti21, canvas in out/demo/")]
    table = [line.split() for line in result.err.splitlines()]
    assert ["exam", "errors", "warnings", "outputs"] in table
    assert ["broken", "1", "0", "not", "built"] in table
    assert written and ["demo", "0", "0", "8", "written,", "0", "unchanged"] in table  # the eight outputs
    assert "build: not built: broken: fix the errors above; their earlier outputs were left as they were" in result.err
    again = build(run_cli, sources, "--exam", "demo")
    assert again.code == 0
    assert ["demo", "0", "0", "0", "written,", "8", "unchanged"] in [line.split() for line in again.err.splitlines()]


def test_unchecked_quotes_are_one_line_per_exam_unless_verbose(run_cli, make_sources):
    sources = make_sources("valid", "terms_four", audited=False)
    result = validate(run_cli, sources)
    assert result.lines == ["sources/demo/exam.yaml:1:1: warning: 5 quotes not checked against their pages yet; "
                            "run `exam-prep audit --exam demo` where the pages can be reached (-v lists each) [citation-unchecked]"]
    verbose = validate(run_cli, sources, "--verbose")
    assert len(verbose.lines) == 5
    assert all("quote not checked against its page yet" in line for line in verbose.lines)
