"""The study site's review shows a varied question's next variant each time the card comes back (the FSRS card is
the question, not the variant), grades each variant against its own answer, and keeps which variant was shown
(chromium, the clock paused)."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from pipeline.cli import main
from schema.progress import PROGRESS_VERSION, Progress
from tests.conftest import TODAY
from tests.kit.studysite import axe_serious, fill_answer, guarded_context, page_of
from tests.kit.variants import PLAIN, SAFE_RATIO, write_varied

DAY1 = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.UTC)
KEY = f"exam-prep:demo:progress-{PROGRESS_VERSION}"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("varied-site")
    sources = write_varied(root, SAFE_RATIO, PLAIN)
    assert main(["variants", "--sources", str(sources), "--today", TODAY]) == 0
    assert main(["build", "--sources", str(sources), "--out", str(root / "out"), "--only", "bank,site", "--today", TODAY]) == 0
    return root / "out" / "demo"


def test_review_shows_the_next_variant_and_grades_each_by_its_own_answer(browser, built):
    bank = {q["id"]: q for q in json.loads((built / "bank.json").read_text())["questions"]}
    variants = bank["1.1-ratio"]["variants"]
    assert variants[0]["parts"][0]["value"] != variants[1]["parts"][0]["value"], "the fixture's first two variants must differ"
    with guarded_context(browser, ((built / "site").as_uri() + "/",), timezone_id="UTC") as ctx:
        page = page_of(ctx)
        page.clock.install(time=DAY1 - dt.timedelta(hours=1))
        page.clock.pause_at(DAY1)
        page.goto((built / "site" / "review.html").as_uri())
        shown = []
        for _ in range(12):
            form = page.locator("#review-stage form.question")
            if form.count() == 0:
                page.clock.fast_forward("20:00")
                page.locator("#review-next").click() if page.locator("#review-next").is_visible() else page.reload()
                continue
            qid = form.get_attribute("data-qid")
            if qid == "1.1-ratio":
                n = int(form.get_attribute("data-variant"))
                shown.append(n)
                # variant 1 answered with its own answer, variant 2 with variant 1's: each graded against its own
                fill_answer(form, {"parts": [variants[0]["parts"][0]]}, right=True)
            else:
                fill_answer(form, bank[qid], right=True)
            form.locator("button.check").click()
            page.locator("#review-next").wait_for(state="visible")
            if len(shown) == 2:
                break
            page.clock.fast_forward("20:00")  # the learning step comes due
            page.locator("#review-next").click()
        doc = page.evaluate(f"() => JSON.parse(localStorage.getItem({json.dumps(KEY)}))")
        exported = page.evaluate("() => window.ExamPrep.store.responsesCsv(window.ExamPrep.store.load())")
        assert page.errors == [] and ctx.offsite == []
    assert shown == [1, 2]
    answers = [a for a in doc["answers"] if a["card_id"] == "1.1-ratio"]  # the day's first answer only, as for any card
    assert [(a["variant"], a["score"]) for a in answers] == [(1, 1)]
    # variant 2 was given variant 1's number: wrong against its own answer (Again, 1), as the log and the card keep
    assert [(r["variant"], r["rating"]) for r in doc["log"] if r["card_id"] == "1.1-ratio"] == [(1, 3), (2, 1)]
    # the answers export names the variant (`<id>.vN`), so `stats` grades it by that variant's key
    rows = [line.split(",") for line in exported.strip().splitlines()]
    assert [r[1] for r in rows if r[1].startswith("1.1-ratio")] == ["1.1-ratio.v1"]
    card = doc["cards"]["1.1-ratio"]
    assert card["variant"] == 2 and card["last"]["result"] == "wrong"



def _mock(page, built, answer: str, plain: str) -> str:
    """One mock exam attempt (seed 7), finished: the varied question answered with `answer`, the other with option
    `plain`. Returns the variant the attempt showed."""
    page.goto((built / "site" / "mock.html").as_uri())
    page.fill("#mock-seed", "7")
    page.click("#mock-begin")
    forms = page.locator("#mock-questions form.question")
    assert sorted(forms.evaluate_all("fs => fs.map(f => f.dataset.qid)")) == ["1.1-plain", "1.1-ratio"]  # each once
    ratio = page.locator("#mock-questions form[data-qid='1.1-ratio']")
    variant = ratio.get_attribute("data-variant")
    ratio.locator("input[type=text]").fill(answer)
    page.locator(f"#mock-questions form[data-qid='1.1-plain'] input[value='{plain}']").check()
    page.click("#mock-finish")  # all answered, none flagged: scored without asking
    page.locator("#mock-results").wait_for(state="visible")
    return variant


@pytest.mark.parametrize("second", ["its own answer", "the first variant's answer"])
def test_a_mock_exam_asks_the_next_variant_grades_it_by_its_own_answer_and_its_review_shows_it(browser, built, second):
    bank = {q["id"]: q for q in json.loads((built / "bank.json").read_text())["questions"]}
    v1, v2 = bank["1.1-ratio"]["variants"][:2]
    one, two = v1["parts"][0]["value_text"], v2["parts"][0]["value_text"]
    assert one != two and one not in v2["answer"], "the fixture's first two variants must differ"
    plain = next(o["id"] for o in bank["1.1-plain"]["parts"][0]["options"] if o["correct"])
    given = two if second == "its own answer" else one
    with guarded_context(browser, ((built / "site").as_uri() + "/",), timezone_id="UTC") as ctx:
        page = page_of(ctx)
        page.clock.install(time=DAY1 - dt.timedelta(hours=1))
        page.clock.pause_at(DAY1)
        first = _mock(page, built, one, plain)
        page.clock.pause_at(DAY1 + dt.timedelta(minutes=10))
        again = _mock(page, built, given, plain)
        doc = page.evaluate(f"() => JSON.parse(localStorage.getItem({json.dumps(KEY)}))")

        page.goto((built / "site" / "mock-review.html").as_uri())  # the latest attempt's review
        shown = page.locator("#mock-review-list form.question:visible")
        assert sorted(shown.evaluate_all("fs => fs.map(f => f.dataset.qid)")) == ["1.1-plain", "1.1-ratio"]  # no other variant's form
        asked = page.locator("#mock-review-list form[data-qid='1.1-ratio']:visible")
        review = {"variant": asked.get_attribute("data-variant"), "stem": asked.locator(".stem").inner_text(),
                  "given": asked.locator("input[type=text]").input_value(), "verdict": asked.locator(".mock-verdict .verdict").inner_text(),
                  "answer": asked.locator(".solution-body .answer").inner_text(), "why": asked.locator(".solution-body .explanation").inner_text()}
        page.clock.resume()
        assert axe_serious(page, preload=False) == []
        page.clock.pause_at(DAY1 + dt.timedelta(minutes=20))

        page.goto((built / "site" / "review.html").as_uri())  # review goes on from the mock's variant: the third
        after = None
        for _ in range(3):
            form = page.locator("#review-stage form.question")
            if form.get_attribute("data-qid") == "1.1-ratio":
                after = form.get_attribute("data-variant")
                break
            fill_answer(form, bank[form.get_attribute("data-qid")], right=True)
            form.locator("button.check").click()
            page.locator("#review-next").click()
        page.goto((built / "site" / "progress.html").as_uri())
        problem = page.evaluate("d => window.ExamPrep.progressProblem(d)", doc)  # what an import checks first
        assert page.errors == [] and ctx.offsite == []

    assert (first, again, after) == ("1", "2", "3")
    right = second == "its own answer"
    a1, a2 = doc["mocks"]
    assert (a1["variants"], a2["variants"]) == ({"1.1-ratio": 1}, {"1.1-ratio": 2})
    assert "1.1-ratio" in a1["right"] and ("1.1-ratio" in a2["right"]) == right
    mock_answers = [(a["variant"], a["score"], a["response"]) for a in doc["answers"] if a["card_id"] == "1.1-ratio"]
    assert mock_answers == [(1, 1, [one]), (2, int(right), [given])]
    assert [a for a in doc["answers"] if a["card_id"] == "1.1-plain" and "variant" in a] == []  # only a varied question names one
    assert review["variant"] == "2" and review["stem"] == v2["stem"] and review["given"] == given
    assert review["verdict"] == ("Right." if right else "Not right.") + f" You answered “{given}”."
    assert two in review["answer"] and v2["explanation"] in review["why"]
    assert problem is None
    Progress.model_validate(doc)  # the progress schema (an export's) holds the attempts' variants
