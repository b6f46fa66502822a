"""The Anki deck, imported with the real Anki backend (the `anki` package) as a learner's Anki would.

Every test builds with the CLI and imports with Anki's own collection import and its default options
(update notes and note types "if newer"), into a fresh collection in a temporary folder.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
from anki.collection import Collection

from pipeline.check.validate import validate
from pipeline.derive import build_view
from pipeline.render.anki import note_types
from pipeline.settings.reader import exam_inputs
from pipeline.text import cloze
from tests.conftest import TODAY
from tests.kit.anki import import_package
from tests.kit.golden import assert_golden
from tests.kit.sample import OBJECTIVES, copy_of, set_value

EXAM = "nca-genm"
SDE = 1798156800  # 2026-12-25


@pytest.fixture(autouse=True)
def _no_source_date_epoch(monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)


@pytest.fixture
def build(run_cli):
    def run(sources: Path, out: Path) -> Path:
        # --force: some tests swap the template folder for a copy, which the incremental build's
        # input hash (the repo's templates/) cannot see
        result = run_cli("build", "--sources", str(sources), "--today", TODAY, "--out", str(out), "--force")
        assert result.code == 0, result.err
        return out / EXAM

    return run


@pytest.fixture
def collection(tmp_path):
    """A learner's empty collection (Anki keeps media next to it, so it gets a folder of its own)."""
    (tmp_path / "learner").mkdir()
    col = Collection(str(tmp_path / "learner" / "collection.anki2"))
    yield col
    col.close()


def keep(folder: Path, tmp_path: Path, name: str) -> Path:
    """A copy of a build's deck, before the next build into the same folder replaces it."""
    return Path(shutil.copy(folder / "deck.apkg", tmp_path / name))


def plain(card_html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", re.sub(r"<style>.*?</style>", "", card_html, flags=re.S)).split())


def expected_cards(sources: Path) -> dict[str, Counter]:
    """Cards per objective and per note type, counted from the content: 2 per term (1 when its definition
    needs it), 1 per question, 1 per cloze number, 1 per example."""
    from pipeline.practice.term_cards import one_way_terms

    content = validate(sources, dt.date.fromisoformat(TODAY)).exams[0]
    view = build_view(exam_inputs(content))
    one_way = Counter(objective for objective, _, _ in one_way_terms(content))
    per_type, per_objective = Counter(), Counter()
    for objective in content.objectives:
        clozes = sum(len({m.number for m in cloze.marks(kp.text)}) for kp in objective.key_points)
        counts = {"term": 2 * (len(objective.terms) - one_way[objective.id]), "term-one-way": one_way[objective.id], "question": len(view.objective(objective.id).practice) + len(objective.check_yourself), "cloze": clozes,
                  "example": len(objective.examples)}
        per_type.update(counts)
        per_objective[objective.id] = sum(counts.values())
    return {"type": per_type, "objective": per_objective}


def test_sample_deck_imports_cleanly(build, collection, full_copy, tmp_path):
    log = import_package(collection, build(full_copy, tmp_path / "out") / "deck.apkg")
    assert (len(log.conflicting), len(log.duplicate), len(log.missing_notetype), len(log.empty_first_field)) == (0, 0, 0, 0)
    assert len(log.new) == collection.note_count() == 67  # 18 terms, 34 authored and 1 generated matching questions, 4 check-yourself prompts, 7 key points with cloze marks, 3 examples
    expected = expected_cards(full_copy)
    cards = [collection.get_card(cid) for cid in collection.find_cards("")]
    by_type = Counter(note_types.NOTE_TYPES[[t.model_id for t in note_types.NOTE_TYPES].index(c.note().mid)].key for c in cards)
    # 11 terms whose definition needs the term, or whose deck names it, get one card (pipeline/practice/term_cards.py)
    assert by_type == expected["type"] == Counter(term=14, **{"term-one-way": 11}, question=39, cloze=7, example=3)
    by_deck = Counter(collection.decks.name(c.did).rsplit("::", 1)[1].split()[0] for c in cards)
    assert by_deck == expected["objective"]


def test_deck_tree(build, collection, full_copy, tmp_path):
    import_package(collection, build(full_copy, tmp_path / "out") / "deck.apkg")
    names = sorted(d.name for d in collection.decks.all_names_and_ids() if d.name != "Default")
    section = "NCA-GENM::6 Performance Optimization"
    assert names == ["NCA-GENM", section] + [
        f"{section}::{o}"
        for o in ("6.1 Efficiency versus accuracy", "6.2 Hyperparameter tuning", "6.3 Transfer learning for performance", "6.4 Training optimization")
    ]


def test_every_note_tagged_by_exam_section_objective_and_type(build, collection, full_copy, tmp_path):
    import_package(collection, build(full_copy, tmp_path / "out") / "deck.apkg")
    every = set(collection.find_notes(""))
    assert set(collection.find_notes("tag:NCA-GENM")) == every
    assert set(collection.find_notes("tag:NCA-GENM::6_Performance_Optimization")) == every
    per_objective = [collection.find_notes(f"tag:NCA-GENM::6_Performance_Optimization::6.{n}_*") for n in (1, 2, 3, 4)]
    assert sorted(n for ids in per_objective for n in ids) == sorted(every)
    per_type = [collection.find_notes(f"tag:NCA-GENM::type::{t}") for t in ("term", "question", "key_point", "example", "check_yourself")]
    assert sorted(n for ids in per_type for n in ids) == sorted(every)
    assert all(" " not in tag and tag.count("::") >= 2 for tag in collection.tags.all())


def test_no_card_is_empty(build, collection, full_copy, tmp_path):
    import_package(collection, build(full_copy, tmp_path / "out") / "deck.apkg")
    assert list(collection.get_empty_cards().notes) == []  # Anki's own check (Tools > Empty Cards)
    for cid in collection.find_cards(""):
        card = collection.get_card(cid)
        front, back = plain(card.question()), plain(card.answer())
        context = plain(card.note()["Context"])
        assert front.removeprefix(context).strip() and back.removeprefix(context).strip(), card.note()["Ref"]
        assert front != back, card.note()["Ref"]
        if card.note_type()["type"] == 1:  # cloze: something is hidden on the front and shown on the back
            assert "[...]" in front and "[...]" not in back


def test_rebuild_after_editing_a_definition_updates_that_note(build, full_copy, tmp_path):
    out = build(full_copy, tmp_path / "out")
    first = keep(out, tmp_path, "first.apkg")
    set_value(copy_of(full_copy, OBJECTIVES[0]), ("terms", 2, "definition"), "A GPU unit for fast matrix multiply-accumulate, edited.")
    second = keep(build(full_copy, tmp_path / "out"), tmp_path, "second.apkg")

    col = Collection(str(tmp_path / "learner.anki2"))
    import_package(col, first)
    log = import_package(col, second)
    assert (len(log.new), len(log.conflicting), col.note_count()) == (0, 0, 67)
    (note_id,) = col.find_notes('"Term:Tensor Core"')
    assert col.get_note(note_id)["Definition"] == "<p>A GPU unit for fast matrix multiply-accumulate, edited.</p>"
    col.close()

    changes = json.loads((out / "deck-changes.json").read_text())
    # the term's note, and the generated matching question: without "BF16" in it, the definition may now
    # stand beside bfloat16's (no prompt names another answer of its question)
    assert [(n["ref"], n["changed"]) for n in changes["notes"]["changed"]] == [
        ("gen-matching-mixed-precision", ["Options", "Answer"]), ("Tensor Core", ["Definition"])]
    assert (changes["notes"]["added"], changes["notes"]["removed"], changes["note_types_changed"]) == ([], [], [])


def test_edit_reaches_anki_without_a_previous_build(build, full_copy, tmp_path):
    """A fresh output folder (a CI build) has no previous deck to compare with: the edited file's time is what makes it newer."""
    first = build(full_copy, tmp_path / "a") / "deck.apkg"
    file = copy_of(full_copy, OBJECTIVES[0])
    set_value(file, ("terms", 2, "definition"), "Edited again.")
    stamp = json.loads((tmp_path / "a" / EXAM / "deck-changes.json").read_text())["package_timestamp"] + 1
    os.utime(file, (stamp, stamp))  # the edit happened after the first build (made explicit, not left to the clock)
    second = build(full_copy, tmp_path / "b") / "deck.apkg"
    col = Collection(str(tmp_path / "learner.anki2"))
    import_package(col, first)
    log = import_package(col, second)
    assert (len(log.new), len(log.conflicting), col.note_count()) == (0, 0, 67)
    assert col.get_note(col.find_notes('"Term:Tensor Core"')[0])["Definition"] == "<p>Edited again.</p>"
    col.close()


def test_template_change_updates_the_note_type(build, full_copy, tmp_path, monkeypatch):
    templates = Path(shutil.copytree(note_types.TEMPLATE_DIR, tmp_path / "templates"))
    monkeypatch.setattr(note_types, "TEMPLATE_DIR", templates)
    out = build(full_copy, tmp_path / "out")
    first = keep(out, tmp_path, "first.apkg")
    front = templates / "question.front.html"
    front.write_text(front.read_text() + '<div class="new-line">Take your time.</div>\n')
    second = keep(build(full_copy, tmp_path / "out"), tmp_path, "second.apkg")

    col = Collection(str(tmp_path / "learner.anki2"))
    import_package(col, first)
    log = import_package(col, second)
    assert (len(log.new), len(log.conflicting), col.note_count()) == (0, 0, 67)
    assert col.db.scalar("SELECT count() FROM notetypes WHERE name LIKE 'Exam prep: question%'") == 1  # updated, not copied
    card = col.get_card(col.find_cards("tag:NCA-GENM::type::question")[0])
    assert "Take your time." in card.question()
    col.close()
    changes = json.loads((out / "deck-changes.json").read_text())
    assert [(t["name"], t["changed"]) for t in changes["note_types_changed"]] == [("Exam prep: question (v1)", ["templates"])]
    assert changes["notes"]["changed"] == []


def test_same_sources_with_source_date_epoch_give_the_same_package(build, full_copy, tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(SDE))
    a, b = build(full_copy, tmp_path / "a"), build(full_copy, tmp_path / "b")
    assert (a / "deck.apkg").read_bytes() == (b / "deck.apkg").read_bytes()
    assert (a / "deck-changes.json").read_text() == (b / "deck-changes.json").read_text()
    assert json.loads((a / "deck-changes.json").read_text())["package_timestamp"] == SDE


def test_removed_and_added_notes_are_listed(build, full_copy, tmp_path):
    build(full_copy, tmp_path / "out")
    file = copy_of(full_copy, OBJECTIVES[0])
    text = file.read_text(encoding="utf-8")
    file.write_text(text.replace("id: 6.1-q9", "id: 6.1-q90"), encoding="utf-8")  # the same question under a new id
    changes = json.loads((build(full_copy, tmp_path / "out") / "deck-changes.json").read_text())
    assert [n["ref"] for n in changes["notes"]["removed"]] == ["6.1-q9"]
    assert [n["ref"] for n in changes["notes"]["added"]] == ["6.1-q90"]
    assert changes["notes"]["removed"][0]["front"].startswith("Zeroing half the entries")


def test_source_text_never_becomes_markup_in_a_card(build, collection, full_copy, tmp_path):
    file = copy_of(full_copy, OBJECTIVES[0])
    set_value(file, ("terms", 2, "definition"), '"<script>alert(1)</script> <b>bold</b> & *real* emphasis"')
    set_value(file, ("key_points", 0, "text"), '"Use {{c1::<img src=x onerror=alert(1)> *sizes*::a <i>hint</i>}} always."')
    import_package(collection, build(full_copy, tmp_path / "out") / "deck.apkg")
    cards = [collection.get_card(cid) for cid in collection.find_cards("tag:NCA-GENM::6_Performance_Optimization::6.1_*")]
    html = " ".join(c.question() + c.answer() for c in cards)
    assert "<script>" not in html and "<b>" not in html and "<img" not in html and "<i>" not in html
    assert "&lt;script&gt;" in html and "<em>real</em>" in html and "&amp;" in html
    cloze_card = next(c for c in cards if c.note_type()["type"] == 1)
    assert "[a &lt;i&gt;hint&lt;/i&gt;]" in cloze_card.question()
    assert "&lt;img src=x onerror=alert(1)&gt; <em>sizes</em>" in cloze_card.answer()


GOLDEN_CARDS = [  # one card of each template and each question type, as Anki renders them
    ('"Term:Tensor Core" card:1', "term, term to definition"),
    ('"Term:Tensor Core" card:2', "term, definition to term"),
    ("tag:NCA-GENM::type::key_point Ref:6.1-tensor-core-alignment", "key point cloze"),
    ("Ref:6.1-q1", "single"),
    ("Ref:6.1-q8", "multiple"),
    ("Ref:6.1-q2", "true_false"),
    ("Ref:6.1-q5", "short_answer"),
]


def test_cards_as_anki_renders_them_golden(build, collection, full_copy, tmp_path):
    import_package(collection, build(full_copy, tmp_path / "out") / "deck.apkg")
    parts = []
    for search, title in GOLDEN_CARDS:
        (card_id,) = collection.find_cards(search)
        card = collection.get_card(card_id)
        for side, html in (("front", card.question()), ("back", card.answer())):
            parts.append(f"===== {title}: {side}\n{re.sub(r'<style>.*?</style>', '', html, flags=re.S).strip()}\n")
    assert_golden("anki-cards.html.txt", "\n".join(parts))


def test_a_source_date_epoch_that_does_not_move_is_reported(build, full_copy, tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(SDE))
    build(full_copy, tmp_path / "out")
    set_value(copy_of(full_copy, OBJECTIVES[0]), ("terms", 2, "definition"), "Edited, SOURCE_DATE_EPOCH left alone.")
    changes = json.loads((build(full_copy, tmp_path / "out") / "deck-changes.json").read_text())
    assert changes["package_timestamp"] == changes["previous_package_timestamp"] == SDE  # reproducible, as asked
    assert len(changes["warnings"]) == 1 and "Anki will not apply the changes" in changes["warnings"][0]


def _learner_reimports(tmp_path: Path, first: Path, second: Path, review: bool = False):
    """A learner imports `first`, reviews a card (when `review`), then imports `second`: the second import's log."""
    col = Collection(str(tmp_path / "learner.anki2"))
    try:
        import_package(col, first)
        if review:
            card = col.get_card(col.find_cards("Ref:6.1-q1")[0])
            card.start_timer()
            col.sched.answer_card(col.sched.build_answer(card=card, states=col._backend.get_scheduling_states(card.id), rating=3))
        before = (col.db.scalar("select count() from revlog"), col.get_card(col.find_cards("Ref:6.1-q1")[0]).ivl)
        log = import_package(col, second)
        after = (col.db.scalar("select count() from revlog"), col.get_card(col.find_cards("Ref:6.1-q1")[0]).ivl)
        return log, before, after
    finally:
        col.close()


def _later(path: Path, seconds: int = 100) -> None:
    """The file looks edited `seconds` after the newest file of its exam (a checkout, a save without change): newer,
    same content. After the newest, not after its own time: a fixture file edited since the checkout (a lock) is
    newer than the objectives, and the package would keep its time."""
    exam = next(folder for folder in path.parents if (folder / "exam.yaml").is_file())
    stamp = max(f.stat().st_mtime for f in exam.rglob("*") if f.is_file()) + seconds
    os.utime(path, (stamp, stamp))


def test_reimporting_an_unchanged_deck_updates_no_note(build, full_copy, tmp_path):
    """A newer package with the same notes: Anki finds nothing newer to apply, note by note."""
    first = keep(build(full_copy, tmp_path / "out"), tmp_path, "first.apkg")
    for file in OBJECTIVES:
        _later(copy_of(full_copy, file))
    second = keep(build(full_copy, tmp_path / "out2"), tmp_path, "second.apkg")
    assert json.loads((tmp_path / "out2" / EXAM / "deck-changes.json").read_text())["package_timestamp"] > \
        json.loads((tmp_path / "out" / EXAM / "deck-changes.json").read_text())["package_timestamp"]
    log, _, _ = _learner_reimports(tmp_path, first, second)
    assert (len(log.new), len(log.updated), len(log.duplicate)) == (0, 0, 67)


def test_one_changed_question_updates_exactly_that_note_and_keeps_review_history(build, full_copy, tmp_path):
    first = keep(build(full_copy, tmp_path / "out"), tmp_path, "first.apkg")
    file = copy_of(full_copy, OBJECTIVES[0])
    set_value(file, ("questions", 0, "explanation"), "Edited, the one change in this build.")
    _later(file)
    second = keep(build(full_copy, tmp_path / "out"), tmp_path, "second.apkg")
    log, before, after = _learner_reimports(tmp_path, first, second, review=True)
    assert (len(log.new), len(log.updated), len(log.duplicate)) == (0, 1, 66)
    assert [note.fields[0] for note in log.updated] != []
    assert before == after and before[0] == 1  # the review and the interval it gave survive the update


def test_note_times_are_kept_in_a_state_file_beside_the_lock(build, full_copy, tmp_path):
    build(full_copy, tmp_path / "out")
    state = json.loads((full_copy / EXAM / "deck.state.json").read_text())["notes"]
    assert len(state) == 67
    file = copy_of(full_copy, OBJECTIVES[0])
    set_value(file, ("questions", 0, "explanation"), "Edited.")
    _later(file, 1000)
    build(full_copy, tmp_path / "out")
    after = json.loads((full_copy / EXAM / "deck.state.json").read_text())["notes"]
    moved = sorted(guid for guid in state if state[guid] != after[guid])
    assert len(moved) == 1 and after[moved[0]]["mod"] > state[moved[0]]["mod"]
