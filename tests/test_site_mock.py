"""The mock exam as a rehearsal, in chromium with a paused clock: questions held out for mocks are drawn first and
counted, the numbers are labelled (the author's choice, or the cited quote), finishing with unanswered or flagged
questions asks first, and each attempt has a review page (the learner's answer, the key, why, the key point to
read) with filters for wrong, unanswered and flagged questions."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

import pytest

from tests.kit.mock import HELD, cite_minutes, hold_out
from tests.kit.progress import DAY1, KEY
from tests.kit.studysite import OBJECTIVES, axe_serious, build_site, fill_answer, guarded_context, page_of


def _edit(folder: Path) -> None:
    hold_out(folder)
    cite_minutes(folder, "https://example.com/exam")


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    return build_site(tmp_path_factory.mktemp("mock"), *OBJECTIVES, "mock_pool", exam="mock", edit=_edit)


@pytest.fixture(scope="module")
def bank(built) -> dict[str, dict]:
    return {q["id"]: q for q in json.loads((built / "bank.json").read_text(encoding="utf-8"))["questions"]}


@pytest.fixture
def page(browser, built):
    with guarded_context(browser, ((built / "site").as_uri() + "/",), timezone_id="UTC") as ctx:
        page = page_of(ctx)
        page.clock.install(time=DAY1 - dt.timedelta(hours=1))
        page.clock.pause_at(DAY1)
        yield page
        assert page.errors == [] and ctx.offsite == []


def _open(page, built: Path, name: str) -> None:
    page.goto((built / "site" / name).as_uri())


def _doc(page) -> dict:
    return page.evaluate(f"() => JSON.parse(localStorage.getItem({json.dumps(KEY)}) || 'null')")


def _axe(page) -> list:
    page.clock.resume()
    return axe_serious(page, preload=False)


def _begin(page, built: Path, seed: str = "7") -> list[str]:
    _open(page, built, "mock.html")
    page.fill("#mock-seed", seed)
    page.click("#mock-begin")
    return page.locator("#mock-questions form.question").evaluate_all("fs => fs.map(f => f.dataset.qid)")


def test_a_mock_draws_the_held_out_questions_first_says_what_was_seen_and_labels_its_facts(page, built, bank):
    _open(page, built, "practice.html")
    practised = page.locator("form.question").evaluate_all("fs => fs.map(f => f.dataset.qid)")
    assert practised and not set(HELD) & set(practised)  # held out: not on the practice page
    form = page.locator("form[data-qid='1.1-q1']")
    fill_answer(form, bank["1.1-q1"], True)
    form.locator("button.check").click()
    page.clock.pause_at(DAY1 + dt.timedelta(minutes=5))

    _open(page, built, "mock.html")
    facts = page.locator("ul.exam-facts li").all_inner_texts()
    assert facts[0] == "10 questions: this guide's choice: no published number of questions is cited for the real exam."
    assert re.fullmatch(r"2 minutes: as Acme says, “The exam lasts two minutes\.” \(The exam page, .+\)\.", facts[1]), facts[1]
    assert facts[2] == "60% to pass: this guide's choice: no published pass mark is cited for the real exam."
    assert page.locator("p.coverage").inner_text() == "These notes cover 2 sections of the DEMO-1 exam: 1 Basics (40%), 2 More (60%), together 100% of the exam."
    assert "2 questions are held out for mock exams and drawn first" in page.locator("main").inner_text()

    drawn = _begin(page, built)
    assert set(HELD) <= set(drawn) and len(drawn) == 10
    assert not any(bank[q]["generated"] for q in drawn)  # drills stay out
    seen = int("1.1-q1" in drawn)
    assert page.locator("#mock-seen").inner_text() == (
        f"Of these 10 questions, 2 are held out for mock exams; {10 - seen} {'is' if 10 - seen == 1 else 'are'} new to you and {seen} you had met before (in practice or an earlier mock exam).")

    page.click("#mock-finish")
    page.locator("dialog.finish-dialog .finish-confirm").click()
    page.clock.pause_at(DAY1 + dt.timedelta(minutes=10))
    again = _begin(page, built, seed="8")  # a second attempt: what the first drew counts as met before
    met = len(set(again) & (set(drawn) | {"1.1-q1"}))
    assert page.locator("#mock-seen").inner_text().endswith(f" and {met} you had met before (in practice or an earlier mock exam).") and met > 0


def test_finishing_with_open_questions_asks_and_each_attempt_has_a_review_page(page, built, bank):
    drawn = _begin(page, built)
    answers = {qid: i % 3 != 2 for i, qid in enumerate(drawn[:6])}  # six answered, two of them wrong; four left open
    for qid, right in answers.items():
        fill_answer(page.locator(f"#mock-questions form[data-qid='{qid}']"), bank[qid], right)
    page.locator(f"#mock-questions form[data-qid='{drawn[7]}'] .flag-box").check()

    page.click("#mock-finish")
    dialog = page.locator("dialog.finish-dialog")
    assert dialog.is_visible()
    assert dialog.locator("#finish-what").inner_text() == (
        "You have 4 questions of 10 unanswered (7, 8, 9, 10), scored as wrong and 1 question flagged for review (8).")
    assert page.evaluate("() => document.activeElement.textContent") == "Go back to the questions"
    assert _axe(page) == []
    page.clock.pause_at(DAY1 + dt.timedelta(seconds=30))
    dialog.locator(".finish-back").click()  # back: nothing scored, the focus on the first open question's link
    assert not dialog.is_visible() and _doc(page)["mocks"][0]["finished"] is None
    assert page.evaluate("() => document.activeElement.dataset.n") == "7"
    page.click("#mock-finish")
    dialog.locator(".finish-confirm").click()
    results = page.locator("#mock-results")
    results.wait_for(state="visible")
    right = [q for q, ok in answers.items() if ok]
    assert results.locator(".mock-score").inner_text().startswith(f"Score: {len(right)} of 10 (40%): not a pass")

    results.locator(".mock-review-link a").click()
    page.wait_for_url(re.compile(r"mock-review\.html\?attempt="))
    assert page.locator("#mock-review-summary").inner_text() == "Attempt of 2026-11-30 (seed 7): 4 of 10 right (40%), not a pass at 60%."
    forms = page.locator("#mock-review-list form.question:visible")
    assert forms.evaluate_all("fs => fs.map(f => f.dataset.qid)") == drawn  # the attempt's order
    checked = 0
    for n, qid in enumerate(drawn, start=1):
        form = page.locator(f"#mock-review-list form[data-qid='{qid}']")
        verdict = form.locator(".mock-verdict .verdict").inner_text()
        head = form.locator(".mock-number").inner_text()
        assert head == f"Question {n} of 10" + (" · flagged" if n == 8 else "")
        assert form.locator(".solution-body .answer").is_visible() and form.locator(".solution-body .explanation").is_visible()
        link = form.locator(".read-again a").get_attribute("href")
        assert link.startswith(f"objective-{bank[qid]['objective'].replace('.', '-')}") or bank[qid]["key_points"]
        if bank[qid]["key_points"]:
            assert re.fullmatch(r"objective-\d+-\d+\.html#kp-.+", link), link
        if qid not in answers:
            assert verdict == "Not answered (scored as wrong)."
            continue
        assert verdict.startswith("Right. You answered " if answers[qid] else "Not right. You answered ")
        part = bank[qid]["parts"][0]
        if part["shape"] == "choices":  # "you chose B": the letters of the boxes the learner ticked, ticked again here
            ticked = form.locator("input:checked").evaluate_all("is => is.map(i => i.closest('label').querySelector('.letter').textContent.replace('.', ''))")
            assert ticked and verdict.endswith(f"You answered {', '.join(ticked)}.") and form.locator("input").first.is_disabled()
            key = [o["letter"] for o in part["options"] if o["correct"]]
            assert all(f"{k}." in form.locator(".solution-body .answer").inner_text() for k in key) or part["true_false"]
            checked += 1
    assert checked >= 1

    counts = {}
    for value in ("wrong", "unanswered", "flagged", "all"):
        page.check(f"input[name='mock-review-filter'][value='{value}']")
        counts[value] = forms.evaluate_all("fs => fs.map(f => f.dataset.qid)")
    assert counts["wrong"] == [q for q in drawn if q in answers and not answers[q]]
    assert counts["unanswered"] == drawn[6:] and counts["flagged"] == [drawn[7]] and counts["all"] == drawn
    assert page.locator("#mock-review-status").inner_text() == "Showing 10 of 10 questions."
    assert page.locator("[data-count='wrong']").inner_text() == "(2)"
    assert _axe(page) == []

    _open(page, built, "mock.html")  # the attempts list links each attempt's review
    assert page.locator(".mock-attempts a", has_text="review").get_attribute("href").startswith("mock-review.html?attempt=2026-11-30T12")


def test_time_running_out_while_asked_scores_the_attempt(page, built, bank):
    drawn = _begin(page, built)
    fill_answer(page.locator(f"#mock-questions form[data-qid='{drawn[0]}']"), bank[drawn[0]], True)
    page.click("#mock-finish")
    assert page.locator("dialog.finish-dialog").is_visible()
    page.clock.run_for(121_000)
    page.locator("#mock-results").wait_for(state="visible")
    assert not page.locator("dialog.finish-dialog").is_visible() and _doc(page)["mocks"][0]["timed_out"]


def test_a_review_page_without_its_attempt_says_so(page, built):
    page.goto((built / "site" / "mock-review.html").as_uri() + "?attempt=2020-01-01T00:00:00.000Z")
    assert page.locator("#mock-review-missing").is_visible() and page.locator("#mock-review-list form.question:visible").count() == 0


@pytest.mark.parametrize("width", [390, 1280])
def test_the_mock_pages_fit_the_screen(browser, built, bank, width):
    with guarded_context(browser, ((built / "site").as_uri() + "/",), timezone_id="UTC", viewport={"width": width, "height": 900}) as ctx:
        page = page_of(ctx)
        page.clock.install(time=DAY1 - dt.timedelta(hours=1))  # before DAY1: an installed clock runs, and pausing at a time it has passed fails
        page.clock.pause_at(DAY1)
        drawn = _begin(page, built)
        page.click("#mock-finish")
        page.locator("dialog.finish-dialog .finish-confirm").click()
        page.locator(".mock-review-link a").click()
        page.wait_for_url(re.compile(r"mock-review\.html"))
        assert page.locator("#mock-review-list form.question:visible").count() == len(drawn)
        assert page.evaluate("() => document.documentElement.scrollWidth") == width
        assert page.errors == []
