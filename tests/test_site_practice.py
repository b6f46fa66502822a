"""The site as a practice tool, in chromium with a fixed clock (Playwright's clock; the time zone UTC):
the review queue over three days, honest scores (reveal first = Again, a second attempt leaves the score,
self-graded short answers), the mock exam (drawn by weights, timed, scored per section), and progress export,
reset and import (a changed question starts over). Every request must stay in the site's folder."""

from __future__ import annotations

import contextlib
import csv
import datetime as dt
import io
import json
import re
import shutil
from pathlib import Path

import jsonschema
import pytest
from playwright.sync_api import expect

from pipeline.cli import main
from pipeline.paths import ROOT
from schema.progress import PROGRESS_VERSION
from tests.kit.progress import DAY1, KEY, bank_by_id, practice_site
from tests.kit.progress import stored as _doc
from tests.kit.studysite import OBJECTIVES, axe_serious, build_site, fill_answer, guarded_context, page_of, tab_to

SINGLE = "form[data-qid='2.1-q.single']"
ESSAY = "form[data-qid='1.1-q4']"  # an authored short answer: self-graded


def edit_stem(folder: Path) -> None:
    path = folder / "valid.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("What are things made of?", "What are all things made of?"), encoding="utf-8")


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    return practice_site(tmp_path_factory)


@pytest.fixture(scope="module")
def bank(built) -> dict[str, dict]:
    return bank_by_id(built)


@pytest.fixture
def context(browser, built, request):
    options = {"timezone_id": "UTC", "accept_downloads": True, **getattr(request, "param", {})}
    with guarded_context(browser, ((built / "site").as_uri() + "/",), **options) as ctx:
        yield ctx


@pytest.fixture
def page(context):
    page = page_of(context)
    page.clock.install(time=DAY1 - dt.timedelta(hours=1))
    page.clock.pause_at(DAY1)  # fixed: the page's Date and timers move only when a test moves them
    yield page
    assert page.errors == [] and context.offsite == []


def _axe(page) -> list:
    """axe waits on timers: the clock runs on from where it stood while it checks."""
    page.clock.resume()
    return axe_serious(page, preload=False)


def _open(page, built: Path, name: str) -> None:
    page.goto((built / "site" / name).as_uri())


def _answer_shown(page, bank, right: bool) -> str:
    """Answer the question the review stage shows: by its form, or (self-graded) by rating it Good or Again."""
    form = page.locator("#review-stage form.question")
    qid = form.get_attribute("data-qid")
    if form.get_attribute("data-self") is not None:
        form.locator("input[type=text], textarea").fill("In my own words")
        form.locator("button.check").click()
        form.locator(f".self-grade button[data-rating='{3 if right else 1}']").click()
    else:
        fill_answer(form, bank[qid], right)
        form.locator("button.check").click()
    page.locator("#review-next").wait_for(state="visible")
    return qid


def _status(page) -> tuple[int, int]:
    text = page.locator("#review-status").text_content()
    due, new = text.split(" · ")[:2]
    return int(due.removeprefix("Due now: ")), int(new.removeprefix("new: "))


def _due_ids(doc: dict, now: dt.datetime) -> set[str]:
    """The queue's rule, read independently: a learning step whose time has come, a review due before the day ends."""
    end = dt.datetime.combine(now.date() + dt.timedelta(days=1), dt.time(), tzinfo=dt.UTC)
    due = set()
    for qid, card in doc["cards"].items():
        f = card["fsrs"]
        when = dt.datetime.fromisoformat(f["due"].replace("Z", "+00:00"))
        if (f["state"] == 2 and when < end) or (f["state"] in (1, 3) and when <= now):
            due.add(qid)
    return due


def test_review_queue_over_three_days(page, built, bank):
    _open(page, built, "review.html")
    data = page.evaluate("() => EXAM_DATA.questions")
    assert _status(page) == (0, len(bank))
    shown = []
    for i in range(8):  # day 1: new questions only, right and wrong by turns
        shown.append(_answer_shown(page, bank, right=i % 2 == 0))
        page.locator("#review-next").click()
    objectives = [data[q]["objective"] for q in shown]
    assert len(set(objectives[:4])) == 4  # interleaved across the four objectives
    assert all(not set(data[a]["topics"]) & set(data[b]["topics"]) for a, b in zip(shown, shown[1:], strict=False))

    now, days_due = DAY1, []
    for step in range(40):  # the same day: learning steps come due; answer them right until none is left
        now = now + dt.timedelta(minutes=11)
        page.clock.pause_at(now)
        page.reload()
        due, _ = _status(page)
        assert due == len(_due_ids(_doc(page), now)), step
        if not due:
            break
        first = page.locator("#review-stage form.question").get_attribute("data-qid")
        assert first in _due_ids(_doc(page), now)  # due ones come before new ones
        _answer_shown(page, bank, right=True)
    assert {c["fsrs"]["state"] for c in _doc(page)["cards"].values()} == {2}  # all graduated to review

    for day in (1, 2):  # days 2 and 3: what is due today, first
        now = DAY1 + dt.timedelta(days=day)
        page.clock.pause_at(now)
        page.reload()
        expected = _due_ids(_doc(page), now)
        days_due.append(len(expected))
        assert _status(page)[0] == len(expected)
        answered, between = [], 0
        while expected - set(answered):
            assert len(answered) < 3 * len(expected), (day, answered, expected)
            qid = page.locator("#review-stage form.question").get_attribute("data-qid")
            if qid not in expected:  # a new one goes between only when every due one left is on the last one's term
                left = expected - set(answered)
                assert answered and all(set(data[d]["topics"]) & set(data[answered[-1]]["topics"]) for d in left), (day, qid)
                between += 1
            answered.append(_answer_shown(page, bank, right=True))
            page.locator("#review-next").click()
        assert _status(page)[0] == 0 and len(answered) == len(expected) + between
    assert sum(days_due) > 0


def test_revealing_the_answer_first_counts_as_again_and_the_answer_then_counts_nothing(page, built, bank):
    _open(page, built, "objective-2-1.html")
    form = page.locator(SINGLE)
    form.locator("summary").click()
    assert form.locator(".verdict").text_content().startswith("Answer shown before answering")
    fill_answer(form, bank["2.1-q.single"], right=True)
    form.locator("button.check").click()
    assert form.locator(".verdict").text_content() == "Correct."
    assert "does not change your score" in form.locator(".feedback").inner_text()
    doc = _doc(page)
    assert [(r["card_id"], r["rating"]) for r in doc["log"]] == [("2.1-q.single", 1)]
    assert [(a["card_id"], a["score"]) for a in doc["answers"]] == [("2.1-q.single", 0)]
    assert page.locator(".progress-summary").text_content().startswith("1 of ")
    assert page.locator(".progress-summary").text_content().endswith(", 0 right on the first try.")

    page.reload()  # the last answer and its result come back
    right = next(o["id"] for o in bank["2.1-q.single"]["parts"][0]["options"] if o["correct"])
    assert form.locator(f"input[value='{right}']").is_checked()
    assert form.locator("[data-qprogress]").text_content().startswith("· last answer: right (2026-11-30)")


def test_a_second_attempt_in_a_session_leaves_the_score_alone(page, built, bank):
    _open(page, built, "practice.html")
    form = page.locator(SINGLE)
    fill_answer(form, bank["2.1-q.single"], right=False)
    form.locator("button.check").click()
    assert form.locator(".verdict").text_content() == "Not quite."
    fill_answer(form, bank["2.1-q.single"], right=True)
    form.locator("button.check").click()
    assert form.locator(".verdict").text_content() == "Correct."
    summary = page.locator(".progress-summary").text_content()
    assert summary == f"1 of {len(bank)} questions answered, 0 right on the first try."
    assert [r["rating"] for r in _doc(page)["log"]] == [1]

    page.clock.pause_at(DAY1 + dt.timedelta(days=1))  # a new session: the first answer counts again
    page.reload()
    fill_answer(form, bank["2.1-q.single"], right=True)
    form.locator("button.check").click()
    assert page.locator(".progress-summary").text_content() == f"1 of {len(bank)} questions answered, 1 right on the first try."
    assert [r["rating"] for r in _doc(page)["log"]] == [1, 3]


def test_short_answers_are_self_graded_after_the_model_answer_by_keyboard(page, built):
    _open(page, built, "objective-1-1.html")
    form = page.locator(ESSAY)
    assert form.locator("button.check").text_content() == "Show model answer"
    field = form.locator("input[type=text], textarea")
    field.fill("Stuff, I think")
    form.locator("button.check").focus()
    page.keyboard.press("Enter")
    assert form.locator(".verdict").text_content() == "Compare your answer with the model answer:"
    assert "Stuff." in form.locator(".feedback").inner_text()
    buttons = form.locator(".self-grade button").evaluate_all("bs => bs.map(b => b.textContent)")
    assert buttons == ["Again · in 1 minute", "Hard · in 6 minutes", "Good · in 10 minutes", "Easy · in 8 days"]  # FSRS-6 defaults
    assert page.evaluate("() => document.activeElement.dataset.rating") == "3"  # Good has the focus
    page.keyboard.press("Shift+Tab")  # to Hard
    page.keyboard.press("Enter")
    assert form.locator(".feedback").inner_text().endswith("Marked Hard. Next review in 6 minutes.")
    assert form.locator(".self-grade").is_hidden()
    doc = _doc(page)
    assert [(r["card_id"], r["rating"]) for r in doc["log"]] == [("1.1-q4", 2)]
    assert doc["cards"]["1.1-q4"]["last"] == {"response": ["Stuff, I think"], "result": "right", "rating": 2, "time": "2026-11-30T12:00:00.000Z"}
    assert _axe(page) == []
    _open(page, built, "objective-1-2.html")
    gap = page.locator("form[data-qid='gen-cloze-1.2-hint-c1']")  # a fill-in has accepted answers: graded, not self-graded
    assert gap.get_attribute("data-self") is None and gap.locator("button.check").text_content() == "Check answer"


def test_mock_exam_drawn_by_weights_times_out_and_scores_per_section(page, built, bank):
    _open(page, built, "mock.html")
    page.fill("#mock-seed", "7")
    page.click("#mock-begin")
    forms = page.locator("#mock-questions form.question")
    drawn = forms.evaluate_all("fs => fs.map(f => f.dataset.qid)")
    sections = [bank[q]["section"] for q in drawn]
    assert len(drawn) == 10 and abs(sections.count(1) - 4) <= 1 and abs(sections.count(2) - 6) <= 1  # weights 40 and 60
    assert page.locator("#mock-questions .feedback, #mock-questions details, #mock-questions button.check").count() == 0
    assert page.locator("#mock-clock").text_content() == "2:00" and page.locator("#mock-clock").get_attribute("aria-live") == "off"
    page.evaluate("""() => { window.announced = []; new MutationObserver(() => announced.push(document.getElementById('mock-announce').textContent))
                       .observe(document.getElementById('mock-announce'), {childList: true, characterData: true, subtree: true}); }""")
    answers = {qid: i % 3 != 2 for i, qid in enumerate(drawn[:6])}  # six answered, two of them wrong; four left blank
    for qid, right in answers.items():
        fill_answer(page.locator(f"#mock-questions form[data-qid='{qid}']"), bank[qid], right)
    page.locator(f"#mock-questions form[data-qid='{drawn[0]}'] .flag-box").check()
    assert page.locator("#mock-counts").text_content() == "Answered 6 of 10 · flagged for review: 1"
    assert _axe(page) == []

    page.clock.run_for(121_000)  # past the two minutes: scored as it stands
    results = page.locator("#mock-results")
    results.wait_for(state="visible")
    right = [q for q, ok in answers.items() if ok]
    assert results.locator(".mock-score").text_content().startswith(f"Score: {len(right)} of 10 (40%): not a pass")
    assert "Time ran out." in results.locator(".mock-score").text_content()
    rows = results.locator("table").first.locator("tr").evaluate_all("rs => rs.slice(1).map(r => [...r.children].map(c => c.textContent))")
    expected = [[name, str(sum(1 for q in right if bank[q]["section"] == n)), str(sections.count(n))] for n, name in ((1, "1 Basics"), (2, "2 More"))]
    assert [r[:3] for r in rows] == expected
    missed = results.locator(".mock-missed a").evaluate_all("as => as.map(a => a.getAttribute('href'))")
    assert len(missed) == 10 - len(right) and all(h.split("#")[0].startswith("objective-") for h in missed)
    ticks = page.evaluate("() => announced")
    assert "1 minute left." in ticks and ticks[-1] == "Time is up. Your attempt was scored." and len(ticks) <= 3
    assert _axe(page) == []

    doc = _doc(page)
    assert len(doc["mocks"]) == 1 and doc["mocks"][0]["timed_out"] and doc["mocks"][0]["flagged"] == [drawn[0]]
    page.goto((built / "site" / "mock.html").as_uri() + "?seed=7")  # the same seed draws the same questions, in order
    assert page.locator(".mock-attempts li").count() == 1
    page.click("#mock-begin")
    assert forms.evaluate_all("fs => fs.map(f => f.dataset.qid)") == drawn
    page.goto((built / "site" / "index.html").as_uri())
    mastery = page.locator(f"[data-mastery='{bank[drawn[0]]['objective']}']").text_content()
    assert "last mock exam:" in mastery and mastery.startswith("Likely recalled now: 0%")


def _download(page, button: str) -> str:
    with page.expect_download() as info:
        page.click(button)
    return Path(info.value.path()).read_text(encoding="utf-8")


def _stats_read(built: Path, responses: str, tmp_path: Path) -> None:
    """The answers CSV a learner exports is a file the teacher's `stats` reads: every row matched, scores kept."""
    sources = shutil.copytree(built.parent.parent / "sources", tmp_path / "sources")  # item-stats.json goes there
    (tmp_path / "answers.csv").write_text(responses, encoding="utf-8")
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["stats", "--sources", str(sources), "--today", "2026-11-30", "--out", str(tmp_path / "report"), str(tmp_path / "answers.csv")])
    assert code == 0, err.getvalue()
    stats = json.loads((sources / "demo" / "item-stats.json").read_text(encoding="utf-8"))
    answered = {qid: (item["n"], item["facility"]) for qid, item in stats["items"].items() if item.get("n")}
    assert answered == {"1.1-q1": (1, 1.0), "2.1-q.single": (1, 0.0), "2.2-g1": (1, 1.0)}, err.getvalue()
    assert [(f["format"], f["rows"], f["unmatched"]) for f in stats["files"]] == [("long", 3, 0)]


def _practise(page, built, bank) -> None:
    _open(page, built, "practice.html")
    for qid, right in (("1.1-q1", True), ("2.1-q.single", False), ("2.2-g1", True)):
        form = page.locator(f"form[data-qid='{qid}']")
        fill_answer(form, bank[qid], right)
        form.locator("button.check").click()


def test_export_reset_import_restores_the_state(page, built, bank, tmp_path):
    _practise(page, built, bank)
    written = page.evaluate("""() => [ExamPrep.store.responseText([["i1", "i3", "i2"]]), ExamPrep.store.responseText([{p2: "m1", p1: "m2"}]),
                                     ExamPrep.store.responseText([["c", "a"]]), ExamPrep.store.responseText(["typed, text"]), ExamPrep.store.responseText(null)]""")
    assert written == ["i1|i3|i2", "p1=m2|p2=m1", "c|a", "typed, text", ""]  # sequence in the learner's order, pairs, choices, text, revealed
    _open(page, built, "progress.html")
    before, text = _doc(page), _download(page, "#export-json")
    exported = json.loads(text)
    schema = json.loads((ROOT / "schema" / "progress.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(exported, schema)
    assert exported["exported"] == "2026-11-30T12:00:00.000Z" and exported["version"] == PROGRESS_VERSION
    log = list(csv.DictReader(io.StringIO(_download(page, "#export-log"))))
    assert [list(r) for r in log][0] == ["card_id", "review_time", "review_rating", "review_state"]
    assert [(r["card_id"], int(r["review_time"]), int(r["review_rating"]), int(r["review_state"])) for r in log] == [
        (q, int(DAY1.timestamp() * 1000), rating, 0) for q, rating in (("1.1-q1", 3), ("2.1-q.single", 1), ("2.2-g1", 3))]
    responses = _download(page, "#export-responses")
    rows = list(csv.DictReader(io.StringIO(responses)))
    learner = _doc(page)["settings"]["learner"]
    wrong = next(o["id"] for o in bank["2.1-q.single"]["parts"][0]["options"] if not o["correct"])
    assert re.fullmatch(r"u-[0-9a-f]{8}", learner) and list(rows[0]) == ["learner", "question_id", "response", "score", "time"]
    assert [tuple(r.values()) for r in rows] == [(learner, q, response, s, "2026-11-30T12:00:00.000Z") for q, response, s in (
        ("1.1-q1", next(o["id"] for o in bank["1.1-q1"]["parts"][0]["options"] if o["correct"]), "1"), ("2.1-q.single", wrong, "0"), ("2.2-g1", "a", "1"))]
    _stats_read(built, responses, tmp_path)

    page.click(".progress-tools .reset")
    page.click("dialog.reset-dialog .reset-confirm")
    assert _doc(page) is None
    saved = tmp_path / "progress.json"
    saved.write_text(text, encoding="utf-8")
    _import(page, saved, ["3 questions not in this browser, taken from the file: 1.1-q1, 2.1-q.single, 2.2-g1."])
    expect(page.locator("#import-status")).to_have_text("Imported progress.json: 3 questions taken from the file, 0 kept from this browser.")
    assert _doc(page) == before
    _open(page, built, "practice.html")
    assert page.locator("form[data-qid='1.1-q1'] [data-qprogress]").text_content().startswith("· last answer: right")


def _import(page, path: Path, plan: list[str], confirm: bool = True) -> None:
    """Choose a file to import, read the plan shown (its lines up to the closing "Nothing ... replaced" when present),
    then confirm or cancel it."""
    page.set_input_files("#import-file", str(path))
    items = page.locator("#import-plan-list li")
    expect(items.first).to_be_visible()  # FileReader: waits
    assert [t for t in items.all_text_contents() if t != "Nothing in this browser would be replaced."] == plan
    assert page.locator("#import-status").text_content() == ""  # nothing changed yet
    page.click("#import-confirm" if confirm else "#import-cancel")
    assert page.locator(".import-plan").is_hidden()


def test_a_changed_question_starts_over_after_an_import(browser, built, bank, tmp_path):
    newer = build_site(tmp_path / "newer", *OBJECTIVES, "mock_pool", exam="mock", edit=edit_stem)
    assert json.loads((newer / "bank.json").read_text(encoding="utf-8"))["questions"][0]["content_hash"] != bank["1.1-q1"]["content_hash"]
    sites = ((built / "site").as_uri() + "/", (newer / "site").as_uri() + "/")
    with guarded_context(browser, sites, timezone_id="UTC", accept_downloads=True) as first, \
         guarded_context(browser, sites, timezone_id="UTC") as second:
        page = page_of(first)
        page.clock.install(time=DAY1)
        _practise(page, built, bank)
        _open(page, built, "progress.html")
        saved = tmp_path / "progress.json"
        saved.write_text(_download(page, "#export-json"), encoding="utf-8")

        other = page_of(second)  # another browser: the export brought over
        other.goto((newer / "site" / "progress.html").as_uri())
        _import(other, saved, ["2 questions not in this browser, taken from the file: 2.1-q.single, 2.2-g1.",
                               "1 question changed in these notes since the file's answers: the file's answers to them left out: 1.1-q1."])
        expect(other.locator("#import-status")).to_have_text("Imported progress.json: 2 questions taken from the file, 0 kept from this browser.")
        doc = _doc(other)
        assert set(doc["cards"]) == {"2.1-q.single", "2.2-g1"} and {r["card_id"] for r in doc["log"]} == {"2.1-q.single", "2.2-g1"}
        other.goto((newer / "site" / "practice.html").as_uri())
        assert other.locator("form[data-qid='1.1-q1'] [data-qprogress]").text_content() == ""
        assert other.locator("form[data-qid='2.2-g1'] [data-qprogress]").text_content().startswith("· last answer: right")

        page.goto((newer / "site" / "practice.html").as_uri())  # the same browser opening the newer build: the same rule
        assert page.locator("form[data-qid='1.1-q1'] [data-qprogress]").text_content() == ""
        assert page.locator("form[data-qid='2.1-q.single'] [data-qprogress]").text_content().startswith("· last answer: not right")
        assert page.errors == other.errors == [] and first.offsite == second.offsite == []


def test_an_older_file_never_replaces_newer_reviews_and_reset_asks_first(page, built, bank, tmp_path):
    """Export on day 1; practise more on day 2; reset (asked, exported first), import the day-2 export, then the
    day-1 file: every day-2 review stays, and only what the day-1 file alone holds comes in."""
    _practise(page, built, bank)  # day 1: 1.1-q1 right, 2.1-q.single wrong, 2.2-g1 right
    _open(page, built, "progress.html")
    older = tmp_path / "day1.json"
    older.write_text(_download(page, "#export-json"), encoding="utf-8")

    page.clock.pause_at(DAY1 + dt.timedelta(days=1))  # day 2: 2.1-q.single again, now right; 1.2 once
    _open(page, built, "practice.html")
    for qid in ("2.1-q.single", "1.1-q2"):
        form = page.locator(f"form[data-qid='{qid}']")
        fill_answer(form, bank[qid], True)
        form.locator("button.check").click()
    day2 = _doc(page)
    assert day2["cards"]["2.1-q.single"]["last"]["result"] == "right" and len(day2["log"]) == 5

    _open(page, built, "progress.html")
    page.click(".progress-tools .reset")
    dialog = page.locator("dialog.reset-dialog")
    assert dialog.locator("#reset-dialog-what").text_content() == (
        "This erases everything this browser keeps for DEMO-1: 4 questions started (answers and review schedule), 5 reviews in the review log and 0 mock exam attempts.")
    with page.expect_download() as info:
        dialog.locator(".reset-export").click()  # export first, from the dialog itself
    newer = tmp_path / "day2.json"
    newer.write_text(Path(info.value.path()).read_text(encoding="utf-8"), encoding="utf-8")
    assert info.value.suggested_filename == "demo-progress-2026-12-01.json"
    assert dialog.locator(".reset-exported").text_content() == "Saved demo-progress-2026-12-01.json."
    dialog.locator(".reset-cancel").click()  # keeping it: nothing erased
    assert _doc(page) == day2
    page.click(".progress-tools .reset")
    dialog.locator(".reset-confirm").click()
    assert _doc(page) is None and page.locator("#progress-totals").text_content().startswith("0 of ")

    _import(page, newer, ["4 questions not in this browser, taken from the file: 1.1-q1, 1.1-q2, 2.1-q.single, 2.2-g1."])
    assert _doc(page)["cards"] == day2["cards"] and _log(_doc(page)) == _log(day2)
    _import(page, older, ["1 question answered later in this browser than in the file, kept as they are here: 2.1-q.single.",
                          "3 questions kept as they are (the same in the file, or only in this browser)."])
    expect(page.locator("#import-status")).to_have_text("Imported day1.json: 0 questions taken from the file, 4 kept from this browser.")
    after = _doc(page)
    assert after["cards"] == day2["cards"] and _log(after) == _log(day2) and len(after["answers"]) == len(day2["answers"]) == 5

    page.reload()  # a cancelled import changes nothing either
    _import(page, older, ["1 question answered later in this browser than in the file, kept as they are here: 2.1-q.single.",
                          "3 questions kept as they are (the same in the file, or only in this browser)."], confirm=False)
    assert page.locator("#import-status").text_content() == "Not imported: cancelled; nothing changed." and _doc(page)["cards"] == day2["cards"]


def test_a_newer_file_brings_its_reviews_into_an_older_browser(page, built, bank, tmp_path):
    """The other way round (a second browser ahead of this one): the file's later answers replace the older ones here."""
    _practise(page, built, bank)
    _open(page, built, "progress.html")
    day1 = _doc(page)
    page.clock.pause_at(DAY1 + dt.timedelta(days=1))
    _open(page, built, "practice.html")
    form = page.locator("form[data-qid='2.1-q.single']")
    fill_answer(form, bank["2.1-q.single"], True)
    form.locator("button.check").click()
    _open(page, built, "progress.html")
    newer = tmp_path / "newer.json"
    newer.write_text(_download(page, "#export-json"), encoding="utf-8")
    day2 = _doc(page)
    page.evaluate(f"d => localStorage.setItem({json.dumps(KEY)}, JSON.stringify(d))", day1)  # this browser: still day 1
    page.reload()
    _import(page, newer, ["1 question answered later in the file than here, taken from the file: 2.1-q.single.",
                          "2 questions kept as they are (the same in the file, or only in this browser)."])
    assert _doc(page)["cards"] == day2["cards"] and _log(_doc(page)) == _log(day2)


def _log(doc: dict) -> list[tuple]:
    """The review log as a set of moments: one second's reviews (a page checked at once) have no order between them."""
    return sorted((r["review_time"], r["card_id"], r["rating"], r["state"], r["hash"]) for r in doc["log"])


def test_an_import_of_a_foreign_file_is_refused_and_changes_nothing(page, built, bank, tmp_path):
    _practise(page, built, bank)
    before = _doc(page)
    _open(page, built, "progress.html")
    for name, body, message in (("notes.txt", "hello", "Not imported: This file is not JSON: "),
                                ("other.json", json.dumps({"format": "exam-prep-progress", "version": PROGRESS_VERSION, "exam": "other"}),
                                 "Not imported: This file is progress on exam other, not demo.")):
        (tmp_path / name).write_text(body, encoding="utf-8")
        page.set_input_files("#import-file", str(tmp_path / name))
        expect(page.locator("#import-status")).to_contain_text(message)
    assert _doc(page) == before


@pytest.mark.parametrize("context", [{"color_scheme": "light"}, {"color_scheme": "dark"}], indirect=True, ids=["light", "dark"])
def test_axe_finds_nothing_serious_on_the_practice_pages_in_use(page, built, bank, tmp_path):
    _practise(page, built, bank)
    found = {}
    for name in ("review.html", "progress.html", "index.html"):
        _open(page, built, name)
        found[name] = _axe(page)
    page.click("button.reset")
    found["reset asked"] = _axe(page)
    page.click("dialog.reset-dialog .reset-cancel")
    _open(page, built, "progress.html")
    saved = tmp_path / "saved.json"
    saved.write_text(_download(page, "#export-json"), encoding="utf-8")
    page.set_input_files("#import-file", str(saved))
    page.locator(".import-plan").wait_for(state="visible")
    found["import asked"] = _axe(page)
    _open(page, built, "review.html")
    _answer_shown(page, bank, right=False)
    found["review answered"] = _axe(page)
    _open(page, built, "mock.html")
    page.click("#mock-begin")
    page.locator("#mock-questions .flag-box").first.check()
    found["mock running"] = _axe(page)
    page.click("#mock-finish")
    found["mock finish asked"] = _axe(page)
    page.click("dialog.finish-dialog .finish-confirm")
    found["mock results"] = _axe(page)
    assert found == {name: [] for name in found}


@pytest.mark.parametrize("context", [{"viewport": {"width": 375, "height": 800}}], indirect=True)
def test_the_practice_pages_in_use_fit_a_phone_screen(page, built, bank):
    widths = {}
    _open(page, built, "review.html")
    _answer_shown(page, bank, right=True)
    widths["review"] = page.evaluate("() => document.documentElement.scrollWidth")
    _open(page, built, "mock.html")
    page.click("#mock-begin")
    widths["mock"] = page.evaluate("() => document.documentElement.scrollWidth")
    page.click("#mock-finish")
    page.click("dialog.finish-dialog .finish-confirm")
    widths["results"] = page.evaluate("() => document.documentElement.scrollWidth")
    assert widths == {"review": 375, "mock": 375, "results": 375}


def test_review_and_the_mock_exam_by_keyboard_alone(page, built, bank):
    _open(page, built, "review.html")
    first = page.locator("#review-stage form.question").get_attribute("data-qid")
    tab_to(page, "#review-stage input, #review-stage select")
    page.keyboard.press("Space" if bank[first]["type"] in ("single", "multiple", "true_false") else "ArrowDown")
    tab_to(page, "#review-stage button.check")
    page.keyboard.press("Enter")
    assert page.locator("#review-stage .verdict").count() == 1
    tab_to(page, "#review-next")
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.classList.contains('stem')")  # the next question, read from its stem
    assert page.locator("#review-stage form.question").get_attribute("data-qid") != first

    _open(page, built, "mock.html")
    tab_to(page, "#mock-begin")
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.id") == "mock-run-heading"
    tab_to(page, "#mock-questions .flag-box")
    page.keyboard.press("Space")
    assert page.locator("#mock-counts").text_content().endswith("flagged for review: 1")
    page.locator("#mock-finish").focus()
    page.keyboard.press("Enter")  # questions open: asked first, by keyboard too
    assert page.evaluate("() => document.activeElement.textContent") == "Go back to the questions"
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.classList.contains('mock-results')")
