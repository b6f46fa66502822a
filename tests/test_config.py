"""pipeline.toml is checked like a source: every unknown key and bad value at its line and column, with the
closest allowed word, for every command (exit 2); its settings reach `build` and `validate`."""

from __future__ import annotations

import importlib
import typing

import pytest

from pipeline.errors import UsageError
from pipeline.settings import project as config
from tests.conftest import TODAY

BROKEN = """\
# settings
outputs = ["guide", "dek"]
papr = "letter"
strict = 1

[exams.demo]
paper = "a5"
out = "x"
"""


def test_every_problem_of_the_file_is_reported_at_its_place_in_one_run():
    with pytest.raises(UsageError) as caught:
        config.parse(BROKEN)
    assert str(caught.value).splitlines() == [
        "pipeline.toml:2:11: error: outputs: no output is called 'dek'; did you mean 'deck'? (outputs: guide, deck, bank, site, moodle, gift, qti21, canvas) [config]",
        "pipeline.toml:3:1: error: papr: unknown setting; did you mean 'paper'? (settings here: outputs, strict, paper, variants, out, allow_hosts, exams) [config]",
        "pipeline.toml:4:10: error: strict: expected true or false, got 1 [config]",
        "pipeline.toml:7:9: error: exams.demo.paper: page size of the study guide (guide): expected one of a4, letter, got 'a5' [config]",
        "pipeline.toml:8:1: error: exams.demo.out: a setting of the top level only, not of an exam (settings here: outputs, strict, paper, variants) [config]",
    ]


def test_places_follow_quoted_and_dotted_keys_and_skip_multiline_strings():
    text = 'a = """\nstrict = true\n"""\n[exams."nca-genm"]\n  outputs = ["site"]\nexams.other.strict = true\n'
    places = config.places(text)
    assert places[("a",)][0].line == 1 and ("strict",) not in places
    assert places[("exams", "nca-genm", "outputs")][0] == config.Position(5, 3)
    assert places[("exams", "nca-genm", "exams", "other", "strict")][0].line == 6  # inside the table: TOML's own rule


def test_invalid_toml_is_one_line_at_its_place():
    with pytest.raises(UsageError) as caught:
        config.parse('# settings\nallow_hosts = ["127.0.0.1"\n')
    assert str(caught.value).startswith("pipeline.toml:3:") or str(caught.value).startswith("pipeline.toml:2:")
    assert "invalid TOML" in str(caught.value) and "\n" not in str(caught.value)


def test_settings_merge_exam_over_top_level_and_aliases_resolve():
    settings = config.parse('outputs = ["pdf", "anki"]\npaper = "LETTER"\nstrict = true\n[exams.demo]\noutputs = ["site"]\nstrict = false\n')
    assert settings.default.outputs == ("guide", "deck") and settings.default.options == {"paper": "letter"}
    assert settings.for_exam("demo") == config.ExamSettings(("site",), False, {"paper": "letter"})
    assert settings.for_exam("other") == config.ExamSettings(("guide", "deck"), True, {"paper": "letter"})


@pytest.mark.parametrize("command", [["validate"], ["build"], ["schema"], ["new", "exam", "x"], ["check-quote", "http://127.0.0.1:9/", "q"]])
def test_a_broken_setting_fails_every_command(run_cli, tmp_path, command):
    (tmp_path / "pipeline.toml").write_text('stric = true\n', encoding="utf-8")
    result = run_cli(*command, cwd=tmp_path)
    assert result.code == 2
    assert result.err.splitlines() == [
        "pipeline.toml:1:1: error: stric: unknown setting; did you mean 'strict'? (settings here: outputs, strict, paper, variants, out, allow_hosts, exams) [config]"]


def test_build_reads_outputs_out_and_strict_from_the_settings(run_cli, make_sources):
    sources = make_sources("valid")
    project = sources.parent
    (project / "pipeline.toml").write_text('out = "made"\noutputs = ["bank"]\n[exams.demo]\nstrict = true\n', encoding="utf-8")
    (sources / "demo" / "valid.yaml").write_text((sources / "demo" / "valid.yaml").read_text() + "\n", encoding="utf-8")
    result = run_cli("build", "--today", TODAY, cwd=project)
    assert result.code == 0, result.err
    assert sorted(p.name for p in (project / "made" / "demo").iterdir()) == ["bank.json"]
    only = run_cli("build", "--today", TODAY, "--only", "deck", cwd=project)
    assert sorted(p.name for p in (project / "made" / "demo").iterdir()) == ["bank.json", "deck-changes.json", "deck.apkg"], only.err
    (project / "pipeline.toml").write_text('[exams.demo]\nstrict = true\n', encoding="utf-8")
    (sources / "demo" / "valid.yaml").write_text((sources / "demo" / "valid.yaml").read_text().replace("reviewed: 2026-11-01", "reviewed: 2020-01-01"), encoding="utf-8")
    strict = run_cli("validate", "--today", TODAY, cwd=project)
    assert strict.code == 1 and "error: reviewed: last reviewed 2020-01-01" in strict.out, strict.out


def test_only_refuses_an_unknown_output_with_the_closest_name(run_cli, make_sources, capsys):
    sources = make_sources("valid")
    with pytest.raises(SystemExit) as leaving:
        run_cli("build", "--only", "guide,gide", cwd=sources.parent)
    assert leaving.value.code == 2
    assert "argument --only: no output is called 'gide'; did you mean 'guide'?" in capsys.readouterr().err


def test_an_exam_table_for_no_exam_of_the_sources_is_an_error_at_its_line(run_cli, make_sources):
    sources = make_sources("valid")
    (sources.parent / "pipeline.toml").write_text('strict = false\n\n[exams.dmeo]\noutputs = ["guide"]\n', encoding="utf-8")
    result = run_cli("validate", "--today", TODAY, cwd=sources.parent)
    assert result.code == 2
    assert result.err.splitlines()[-1] == "pipeline.toml:3:1: error: exams.dmeo: no exam 'dmeo' in the sources; did you mean 'demo'? (exams: demo) [config]"


def test_each_outputs_options_model_declares_what_the_registry_offers():
    """The registry's light options (argparse's choices, read without pydantic) and the models the file is checked
    against say the same: every option is a field of its output's own model, with the same choices and help."""
    from pydantic import BaseModel

    from pipeline import render as registry
    from pipeline.settings import model

    declared = {}
    for name, entry in registry.RENDERERS.items():
        named = registry.output(entry).options_model
        if named is None:
            assert not registry.output(entry).options, f"{name} reads options but declares no model of them"
            continue
        module, cls = named.split(":")
        options_model = getattr(importlib.import_module(module), cls)
        assert issubclass(options_model, BaseModel) and module.startswith(f"pipeline.render.{name if name != 'deck' else 'anki'}")
        assert options_model.model_config["extra"] == "forbid" and options_model.model_config["strict"] is True
        assert sorted(options_model.model_fields) == sorted(registry.output(entry).options), name
        declared |= {field: (name, info) for field, info in options_model.model_fields.items()}
    assert sorted(declared) == sorted(registry.options()) == ["paper", "variants"]
    for field, (owner, info) in declared.items():
        offered_by, option = registry.options()[field]
        assert owner == offered_by and info.description == option.help
        literal = next(arg for arg in typing.get_args(info.annotation) if arg is not type(None))
        assert typing.get_args(typing.get_args(literal)[0]) == option.choices, field
    assert model.exam_keys() == ["outputs", "strict", "paper", "variants"]
    assert model.top_keys() == [*model.exam_keys(), "out", "allow_hosts", "exams"]


@pytest.mark.parametrize(("text", "line"), [
    ('out = "/etc"\n', 'pipeline.toml:1:7: error: out: expected a folder inside the content folder, e.g. "build", got \'/etc\' '
                       "(an absolute folder or one outside is only taken from the command line: --out DIR) [config]"),
    ('out = 3\n', 'pipeline.toml:1:7: error: out: expected a folder name, e.g. "build", got 3 [config]'),
    ('allow_hosts = ["a", 2, 3]\n', 'pipeline.toml:1:15: error: allow_hosts: expected a list of HOST or HOST:PORT strings, e.g. ["127.0.0.1:8000"] [config]'),
    ('exams = 3\n', "pipeline.toml:1:9: error: exams: expected tables, one per exam: [exams.EXAM-ID] [config]"),
    ('[exams]\ndemo = 3\n', "pipeline.toml:2:8: error: exams.demo: expected a table of settings for exam 'demo' (outputs, strict, paper, variants) [config]"),
    ('strict = 2026-01-01\n', "pipeline.toml:1:10: error: strict: expected true or false, got datetime.date(2026, 1, 1) [config]"),
    ('variants = "11"\n', "pipeline.toml:1:12: error: variants: notes a varied question makes in the deck, at most (its variants 1..N) (deck): "
                          "expected one of 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, got '11'; did you mean '1'? [config]"),
    ('outputs = []\n', 'pipeline.toml:1:11: error: outputs: expected a list of output names, e.g. ["guide", "deck"] (outputs: guide (study-guide.pdf), '
                       "deck (deck.apkg, deck-changes.json), bank (bank.json), site (site/), moodle (moodle.xml), gift (questions.gift), "
                       "qti21 (qti21.zip), canvas (canvas-qti.zip)) [config]"),
])
def test_each_kind_of_bad_value_says_what_was_expected_at_the_value(text, line):
    """One line per bad value, however many items of it pydantic names (allow_hosts' two numbers: one line)."""
    with pytest.raises(UsageError) as caught:
        config.parse(text)
    assert str(caught.value).splitlines() == [line]


def test_the_checked_file_becomes_the_settings_a_build_reads(tmp_path):
    settings = config.parse('outputs = ["anki", "deck", "bank"]\nvariants = "5"\nout = "made"\nallow_hosts = ["127.0.0.1:9"]\n'
                            '[exams.demo]\npaper = "a4"\n', tmp_path / "pipeline.toml")
    assert settings.default == config.ExamSettings(("deck", "bank"), None, {"variants": "5"})
    assert settings.exams == {"demo": config.ExamSettings(None, None, {"paper": "a4"})}
    assert settings.out == config.Path("made") and settings.allow_hosts == ("127.0.0.1:9",)
