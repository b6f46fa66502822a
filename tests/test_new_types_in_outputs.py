"""Matching and ordering questions, authored and generated, reach the guide, the deck (in real Anki) and the bank."""

from __future__ import annotations

import json

import jsonschema
from anki.collection import Collection
from pypdf import PdfReader

from schema.export import SCHEMA_DIR
from tests.conftest import TODAY
from tests.kit.anki import import_package


def test_matching_and_ordering_in_every_output(run_cli, make_sources, tmp_path):
    sources, out = make_sources("valid", "match_and_order"), tmp_path / "out"
    exam = sources / "demo" / "exam.yaml"  # drills in the printed practice exam too (off by default), so the guide shows a generated matching
    exam.write_text(exam.read_text(encoding="utf-8") + "mock_exam: {drills: true}\n", encoding="utf-8")
    result = run_cli("build", "--sources", str(sources), "--today", TODAY, "--out", str(out))
    assert result.code == 0, result.err
    bank = json.loads((out / "demo" / "bank.json").read_text())
    jsonschema.validate(bank, json.loads((SCHEMA_DIR / "bank.schema.json").read_text()))
    by_id = {q["id"]: q for q in bank["questions"]}
    match, order = by_id["2.1-match"]["parts"][0], by_id["2.1-order"]["parts"][0]
    assert [p["answer_id"] for p in match["prompts"]] == ["m1", "m2"] and sorted(a["id"] for a in match["answers"]) == ["m1", "m2", "m3"]
    assert order["correct_order"] == ["i1", "i2", "i3", "i4"] and [i["id"] for i in order["items"]] != order["correct_order"]
    generated = [q for q in bank["questions"] if q["generated"] == "matching"]
    assert [(len(q["parts"][0]["prompts"]), len(q["parts"][0]["answers"])) for q in generated] == [(3, 4)]  # "A small part that turns." is too short; one answer left over

    text = " ".join(page.extract_text() for page in PdfReader(out / "demo" / "study-guide.pdf").pages)
    for phrase in ("Match each part with what it does.", "Bakes bread", "Put the steps of a request in order.", "Batched",
                   "Match each definition with the term it defines.", "A wheel with teeth that drives a chain."):
        assert phrase in text, phrase

    col = Collection(str(tmp_path / "learner.anki2"))
    try:
        import_package(col, out / "demo" / "deck.apkg")
        refs = {col.get_note(nid)["Ref"] for nid in col.find_notes("tag:*type::question*")}
        assert {"2.1-match", "2.1-order", generated[0]["id"]} <= refs
        card = col.get_card(col.find_cards('"Ref:2.1-order"')[0])
        assert "Answered" in card.question() and "<ol>" in card.answer()
    finally:
        col.close()
