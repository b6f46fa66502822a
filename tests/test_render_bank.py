"""`bank.json`: valid against the committed schema, byte-identical across builds, every authored question
kept, choice questions with the right number of correct options, and the sample's bank as a golden file."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import jsonschema
import pytest

from pipeline.check.validate import validate
from pipeline.cli import main
from schema.export import SCHEMA_DIR
from tests.conftest import FULL, TODAY
from tests.kit.golden import assert_golden


def _build(run_cli, sources: Path, out: Path) -> Path:
    result = run_cli("build", "--sources", str(sources), "--out", str(out), "--today", TODAY, "--only", "bank", cwd=sources.parent)
    assert result.code == 0, result.err
    return out / "nca-genm" / "bank.json"


@pytest.fixture(scope="module")
def sample_bank(tmp_path_factory) -> Path:
    """The sample's bank.json, built once for the tests that only read it (a build of the bank alone: the other
    outputs, the guide's PDF above all, cost most of a whole build and these tests never open them)."""
    base = tmp_path_factory.mktemp("bank")
    sources = shutil.copytree(FULL, base / "built" / "sources")  # a build writes deck.state.json beside the sources
    code = main(["build", "-q", "--sources", str(sources), "--out", str(base / "out"), "--today", TODAY, "--only", "bank"])
    assert code == 0
    return base / "out" / "nca-genm" / "bank.json"


def _questions(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["questions"]


def _coverage(run_cli, make_sources, tmp_path, *objectives: str) -> dict:
    result = run_cli("build", "--sources", str(make_sources(*objectives)), "--out", str(tmp_path / "out"), "--today", TODAY, "--only", "bank")
    assert result.code == 0, result.err
    return json.loads((tmp_path / "out" / "demo" / "bank.json").read_text(encoding="utf-8"))["coverage"]


@pytest.fixture(scope="module")
def sample_content():
    return validate(FULL, dt.date.fromisoformat(TODAY)).exams[0]


def test_sample_bank_matches_golden(sample_bank):
    assert_golden("bank.json", sample_bank.read_text(encoding="utf-8"))


def test_bank_validates_against_the_committed_schema(sample_bank):
    schema = json.loads((SCHEMA_DIR / "bank.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(json.loads(sample_bank.read_text(encoding="utf-8")))]
    assert errors == []


def test_schema_rejects_unknown_keys_and_missing_fields(sample_bank):
    schema = json.loads((SCHEMA_DIR / "bank.schema.json").read_text(encoding="utf-8"))
    bank = json.loads(sample_bank.read_text(encoding="utf-8"))
    bank["questions"][0]["colour"] = "red"
    del bank["questions"][1]["stem_html"]
    messages = sorted(e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(bank))
    assert messages == ["'stem_html' is a required property", "Additional properties are not allowed ('colour' was unexpected)"]


def test_two_builds_from_two_places_are_byte_identical(run_cli, tmp_path, full_copy, sample_bank):
    again = _build(run_cli, full_copy, tmp_path / "elsewhere")
    assert again.read_bytes() == sample_bank.read_bytes()
    assert sample_bank.read_bytes().endswith(b"}\n")


def test_every_authored_question_is_in_the_bank(sample_bank, sample_content):
    authored = [q.id for _, q in sample_content.questions()]
    assert [q["id"] for q in _questions(sample_bank) if q["generated"] is False] == authored


def test_every_part_holds_a_well_formed_answer(sample_bank):
    shapes = set()
    for q in _questions(sample_bank):
        assert len(q["parts"]) == 1, q["id"]
        part = q["parts"][0]
        shapes.add(part["shape"])
        if part["shape"] == "choices":
            correct = sum(o["correct"] for o in part["options"])
            assert correct >= 1 if part["multiple"] else correct == 1, q["id"]
            assert len({o["id"] for o in part["options"]}) == len(part["options"]), q["id"]
            assert [o["letter"] for o in part["options"]] == list("ABCDEF"[: len(part["options"])]), q["id"]
        elif part["shape"] == "pairs":
            assert len(part["prompts"]) >= 2 and {p["answer_id"] for p in part["prompts"]} <= {a["id"] for a in part["answers"]}, q["id"]
        elif part["shape"] == "sequence":
            assert len(part["items"]) >= 3 and sorted(part["correct_order"]) == sorted(i["id"] for i in part["items"]), q["id"]
        elif part["shape"] == "text":
            assert part["accepted"] or part["model_answer"], q["id"]
        assert q["answer"], q["id"]
    assert shapes >= {"choices", "text", "pairs", "sequence"}


def test_generated_distractors_are_real_other_terms(sample_bank, sample_content):
    pool = {t.term for _, t in sample_content.terms()}
    generated = [q for q in _questions(sample_bank) if q["generated"] == "which-term"]
    assert generated  # the sample's glossary yields which-term items: each is checked below
    for q in generated:
        options = q["parts"][0]["options"]
        right = [o["text"] for o in options if o["correct"]]
        wrong = [o["text"] for o in options if not o["correct"]]
        assert len(wrong) == 3 and set(wrong) <= pool - set(right), q["id"]


def test_each_objective_gets_cloze_questions_and_term_questions_where_its_glossary_allows(sample_bank):
    questions = _questions(sample_bank)
    rules = {objective: {q["generated"] for q in questions if q["objective"] == objective} for objective in ("6.1", "6.2", "6.3", "6.4")}
    assert all("cloze" in found for found in rules.values()), rules
    assert {o for o, found in rules.items() if "which-term" in found} == {"6.1", "6.3", "6.4"}  # 6.2's terms: a tool, a setting, one whose definition says "rank"
    dropped = {d["id"]: d["reason"] for d in json.loads(sample_bank.read_text(encoding="utf-8"))["coverage"]["dropped"]}
    assert dropped["gen-which-term-hyperparameter"] == "too_few_distractors" and dropped["gen-which-term-low-rank-adaptation"] == "stem_contains_answer"


def test_source_points_at_the_question_line(sample_bank):
    kinds = set()
    for q in _questions(sample_bank):
        line = (FULL / "nca-genm" / q["source"]["file"]).read_text(encoding="utf-8").splitlines()[q["source"]["line"] - 1]
        if q["generated"] is False:
            assert line.strip() == f"- id: {q['id']}"
        else:
            assert line.lstrip().startswith(("- id:", "- term:")), q["id"]
        kinds.add(q["generated"] is False)
    assert kinds == {True, False}  # authored and generated items were both checked


def test_citations_carry_the_lock_status(run_cli, tmp_path, full_copy):
    quote = "speeding up calculation does not improve performance."
    url = "https://docs.nvidia.com/deeplearning/performance/dl-performance-getting-started/index.html"
    lock = {"citations": [{"url": url, "quote": quote, "status": "found", "checked": "2026-11-20"}]}
    (full_copy / "nca-genm" / "citations.lock.json").write_text(json.dumps(lock), encoding="utf-8")
    q2 = next(q for q in _questions(_build(run_cli, full_copy, tmp_path / "out")) if q["id"] == "6.1-q2")
    assert [(c["status"], c["checked"], c["key_point"]) for c in q2["citations"]] == [("found", "2026-11-20", "6.1-memory-bound")]


def _html_fields(value, key=""):
    if isinstance(value, dict):
        return [html for k, v in value.items() for html in _html_fields(v, k)]
    if isinstance(value, list):
        return [html for v in value for html in _html_fields(v, key)]
    return [value] if key.endswith("_html") and value else []


def test_raw_html_in_sources_stays_text(run_cli, make_sources, tmp_path):
    sources = make_sources("valid", "terms_four", "terms_other_section")
    assert run_cli("build", "--sources", str(sources), "--out", str(tmp_path / "out"), "--today", TODAY, "--only", "bank").code == 0
    html = _html_fields(json.loads((tmp_path / "out" / "demo" / "bank.json").read_text(encoding="utf-8")))
    assert any("&lt;b&gt;raw HTML&lt;/b&gt;" in h for h in html)
    assert not any("<b>" in h for h in html)


def test_coverage_counts_and_flags(run_cli, make_sources, tmp_path):
    coverage = _coverage(run_cli, make_sources, tmp_path, "valid", "terms_four", "terms_other_section", "near_duplicate_question")
    rows = {o["id"]: o for s in coverage["sections"] for o in s["objectives"]}
    assert (rows["1.1"]["authored"], rows["1.1"]["flags"]) == (4, [])
    assert (rows["1.2"]["authored"], rows["1.2"]["terms"], rows["1.2"]["quotes"], rows["1.2"]["flags"]) == (0, 4, 4, ["no_authored_question"])
    assert [(s["number"], s["weight_share"]) for s in coverage["sections"]] == [(1, 40.0), (2, 60.0)]
    assert [(d["id"], d["reason"]) for d in coverage["dropped"]] == [
        ("gen-cloze-1.1-things-c1", "gap_not_a_term_or_number"), ("gen-cloze-1.2-same-number-twice-c1", "several_gaps"),
        ("gen-which-term-cache", "stem_contains_answer"), ("gen-which-term-gadget", "too_few_distractors"), ("gen-which-term-gizmo", "id_taken"),
        ("gen-which-term-thing", "definition_too_short"), ("gen-which-term-widget", "near_duplicate")]
    assert coverage["dropped_by_reason"] == {"definition_too_short": 1, "gap_not_a_term_or_number": 1, "id_taken": 1, "near_duplicate": 1,
                                             "several_gaps": 1, "stem_contains_answer": 1, "too_few_distractors": 1}
    assert rows["1.1"]["by_type"] == {"multiple": 1, "short_answer": 1, "single": 1, "true_false": 1}  # its cloze hides a clause: no fill-in
    assert rows["1.1"]["authored_by_type"] == {"multiple": 1, "short_answer": 1, "single": 1, "true_false": 1}


def test_an_objective_without_question_or_quote_is_flagged(run_cli, make_sources, tmp_path):
    coverage = _coverage(run_cli, make_sources, tmp_path, "valid", "uncited_key_point")  # a warning, still built
    rows = {o["id"]: o for s in coverage["sections"] for o in s["objectives"]}
    assert rows["1.2"]["flags"] == ["no_question", "no_citation"]
    assert coverage["notes"] == ["no matching question for 1.1: it has fewer than 3 terms whose definitions do not name them"]
