"""Cards as a learner reads them: imported with the real Anki backend, rendered by Anki, shown in a real
browser (Playwright with Debian's /usr/bin/chromium) with the note type's CSS, and read back as the
visible text (`innerText`, which leaves out what the CSS hides).

Fixture `glossary_leaks`: definitions that name their term by acronym, expansion or plural.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest
from playwright.sync_api import sync_playwright

from pipeline.practice import term_forms
from tests.conftest import TODAY

CHROMIUM = Path("/usr/bin/chromium")


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM))
        yield b
        b.close()


def _cards(run_cli, sources: Path, tmp_path: Path):
    result = run_cli("build", "--sources", str(sources), "--today", TODAY, "--out", str(tmp_path / "out"))
    assert result.code == 0, result.err
    (tmp_path / "learner").mkdir()
    col = Collection(str(tmp_path / "learner" / "collection.anki2"))
    request = ImportAnkiPackageRequest(package_path=str(tmp_path / "out" / "demo" / "deck.apkg"), options=ImportAnkiPackageOptions())
    col.import_anki_package(request)
    return col, [col.get_card(i) for i in col.find_cards("")]


def _visible(page, card, html: str) -> str:
    css = card.note_type()["css"]
    page.set_content(f'<html><head><style>{css}</style></head><body><div class="card card{card.ord + 1}">{html}</div></body></html>')
    return page.inner_text("body")


def test_no_definition_card_front_shows_its_term(run_cli, make_sources, tmp_path, browser):
    col, cards = _cards(run_cli, make_sources("valid", "glossary_leaks"), tmp_path)
    page = browser.new_page()
    fronts = {}
    for card in cards:
        if card.template()["name"] == "Definition to term":
            note = card.note()
            term = re.sub(r"<[^>]+>", "", note["Term"])
            definition = re.sub(r"<[^>]+>", " ", note["Definition"])
            fronts[term] = _visible(page, card, card.question())
            assert not term_forms.mentions(term_forms.forms(term, definition), fronts[term]), (term, fronts[term])
            assert "\\_" not in fronts[term]
    assert "Also written _____." in fronts["bfloat16"] and "(_____)" in fronts["Low-Rank Adaptation"]
    back = next(c for c in cards if c.template()["name"] == "Term to definition" and "bfloat16" in c.note()["Term"])
    assert "Also written BF16." in _visible(page, back, back.answer())  # the other card says the words
    col.close()


def test_question_backs_mark_the_answer_in_place_and_hide_ids(run_cli, make_sources, tmp_path, browser):
    col, cards = _cards(run_cli, make_sources("valid"), tmp_path)
    page = browser.new_page()
    single = next(c for c in cards if c.note()["Ref"] == "1.1-q1")
    back = _visible(page, single, single.answer())
    assert "Stuff ✓" in back and "Nothing" in back and back.index("Stuff") < back.index("WHY")  # the answer, then why
    for card in cards:
        for side in (card.question(), card.answer()):
            text = _visible(page, card, side)
            if "term" not in card.note_type()["name"]:  # a term's Ref is its name, which its cards show
                assert card.note()["Ref"] not in text, text  # internal ids stay in their hidden field
            assert not re.search(r"\b(above|below)\b", text), text
    col.close()
