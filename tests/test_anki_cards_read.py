"""Cards as a learner reads them: imported with the real Anki backend, rendered by Anki, shown in a real
browser (Playwright with Debian's /usr/bin/chromium) with the note type's CSS, and read back as the
visible text (`innerText`, which leaves out what the CSS hides).

Fixture `glossary_leaks`: definitions that name their term by acronym, expansion or plural.
"""

from __future__ import annotations

import re
from pathlib import Path

from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest

from pipeline.practice import term_forms
from pipeline.text import word_forms
from tests.conftest import TODAY


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
            forms = word_forms.answer_forms(term, *term_forms.forms(term, definition))
            assert word_forms.found(forms, fronts[term]) == [], (term, fronts[term])  # no form of it, compared by stem
            assert "\\_" not in fronts[term]
    assert "(_____)" in fronts["Low-Rank Adaptation"]  # an aside that only names the term: masked
    # a definition that needs a form of its term ("16-bit floating-point", "Tensor Cores are", "KV caches") gets no such card
    assert {"bfloat16", "Tensor Core", "KV cache"}.isdisjoint(fronts) and len(fronts) >= 2
    back = next(c for c in cards if c.template()["name"] == "Term to definition" and "bfloat16" in c.note()["Term"])
    assert "Also written BF16." in _visible(page, back, back.answer())  # the other card says the words
    col.close()


def test_question_backs_mark_the_answer_in_place_and_hide_ids(run_cli, make_sources, tmp_path, browser):
    col, cards = _cards(run_cli, make_sources("valid"), tmp_path)
    page = browser.new_page()
    single = next(c for c in cards if c.note()["Ref"] == "1.1-q1")
    back = _visible(page, single, single.answer())
    assert "Stuff ✓" in back and "Light" in back and back.index("Stuff") < back.index("WHY")  # the answer, then why
    for card in cards:
        for side in (card.question(), card.answer()):
            text = _visible(page, card, side)
            if "term" not in card.note_type()["name"]:  # a term's Ref is its name, which its cards show
                assert card.note()["Ref"] not in text, text  # internal ids stay in their hidden field
            assert not re.search(r"\b(above|below)\b", text), text
    col.close()


def test_matching_cards_hold_four_pairs_at_most_with_labels_that_agree(run_cli, make_sources, tmp_path, browser):
    col, cards = _cards(run_cli, make_sources("valid", "match_and_order", "glossary_leaks"), tmp_path)
    page = browser.new_page()
    matching = [c for c in cards if "Options" in c.note() and "Answers" in c.note()["Options"]]
    assert matching
    for card in matching:
        front = _visible(page, card, card.question())
        styles = page.evaluate("() => [...document.querySelectorAll('.options ol')].map(o => getComputedStyle(o).listStyleType)")
        assert styles == ["decimal", "upper-alpha"], styles  # prompts 1, 2... and answers A, B... as the back names them
        back = _visible(page, card, card.answer())
        prompts = re.findall(r"<li>", card.note()["Options"].split('<div class="label">')[0])
        answers = re.findall(r"<li>", card.note()["Options"].split('<div class="label">')[1])
        assert 2 <= len(prompts) <= 4 and len(answers) > len(prompts), card.note()["Ref"]  # one answer left over
        for number in range(1, len(prompts) + 1):  # the back names each prompt by its front number and the answer by its letter
            assert re.search(rf"(^|\n){number}\. .+ → [A-H]\. ", back), (number, back)
        assert "_____" not in front
    col.close()


def test_check_yourself_prompts_are_self_graded_cards_with_the_key_points_on_the_back(run_cli, make_sources, tmp_path, browser):
    col, cards = _cards(run_cli, make_sources("valid", "site_every_type"), tmp_path)
    page = browser.new_page()
    checks = [c for c in cards if "check_yourself" in " ".join(c.note().tags)]
    assert len(checks) == 2
    front, back = _visible(page, checks[0], checks[0].question()), _visible(page, checks[0], checks[0].answer())
    assert "Say what a sprocket meshes with" in front and "grade yourself" in front
    assert "key points of 2.1" in back.casefold()
    col.close()


def test_a_check_yourself_answer_is_on_the_back_of_its_card_only(run_cli, make_sources, tmp_path, browser):
    sources = make_sources("valid", "site_every_type")
    path = sources / "demo" / "site_every_type.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("  - Say what a sprocket meshes with, and why that matters.",
                    "  - prompt: Say what a sprocket meshes with, and why that matters.\n    answer: A chain; the teeth set the ratio."), encoding="utf-8")
    col, cards = _cards(run_cli, sources, tmp_path)
    page = browser.new_page()
    checks = sorted((c for c in cards if "check_yourself" in " ".join(c.note().tags)), key=lambda c: c.note()["Ref"])
    assert len(checks) == 2
    answered, plain = ((_visible(page, c, c.question()), _visible(page, c, c.answer())) for c in checks)
    assert "Say what a sprocket meshes with" in answered[0] and "A chain" not in answered[0]
    assert re.search(r"model answer\s+a chain; the teeth set the ratio\.", answered[1].casefold()) and "key points of 2.1" in answered[1].casefold()
    assert "model answer" not in plain[1].casefold() and "key points of 2.1" in plain[1].casefold()  # the old form: key points only
    col.close()


def test_a_cloze_card_shows_the_sentence_its_pronoun_leans_on(run_cli, make_sources, tmp_path, browser):
    sources = make_sources("valid")
    path = sources / "demo" / "valid.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("text: Things are {{c1::made of stuff}}.",
                    'text: "PEFT trains few parameters. NeMo applies it as a {{c1::model transform}}."'), encoding="utf-8")
    col, cards = _cards(run_cli, sources, tmp_path)
    page = browser.new_page()
    card = next(c for c in cards if "Text" in c.note())
    front = _visible(page, card, card.question())
    assert "PEFT trains few parameters." in front and "NeMo applies it as a" in front  # "it" has its antecedent
    col.close()
