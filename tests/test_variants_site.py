"""The study site's review shows a varied question's next variant each time the card comes back (the FSRS card is
the question, not the variant), grades each variant against its own answer, and keeps which variant was shown
(chromium, the clock paused)."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from pipeline.cli import main
from schema.progress import PROGRESS_VERSION
from tests.conftest import TODAY
from tests.sitekit import fill_answer, guarded_context, page_of
from tests.variantkit import PLAIN, SAFE_RATIO, write_varied

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
