"""The study site in a real browser: Debian's chromium driven by Playwright (never a downloaded browser).

One browser for the whole session, a fresh context (empty storage) per test. Every request a page makes
is checked against the site's own address (its folder on file://, or the loopback server a storage test
starts); anything else is aborted and recorded, and the tests assert the record stays empty.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.questions import TYPES
from schema.progress import PROGRESS_VERSION
from tests.kit.studysite import axe_serious, build_site, fill_answer, graded, guarded_context, page_of, serve, tab_to

TEMPLATE_PAGES = ("index.html", "objective-2-1.html", "glossary.html", "practice.html", "references.html", "search.html",
                  "review.html", "mock.html", "mock-review.html", "progress.html")
SINGLE = "#q-2_2e1-q_2esingle"  # question 2.1-q.single: its id holds dots


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    return build_site(tmp_path_factory.mktemp("site"))


@pytest.fixture(scope="module")
def server(built):
    with serve(built / "site") as url:
        yield url


@pytest.fixture
def context(browser, built, server, request):
    """A fresh context; `request.param` may set options (viewport, color_scheme, java_script_enabled)."""
    with guarded_context(browser, ((built / "site").as_uri() + "/", server), **getattr(request, "param", {})) as ctx:
        yield ctx


@pytest.fixture
def page(context):
    return page_of(context)


def _url(built: Path, name: str) -> str:
    return (built / "site" / name).as_uri()


def _bank(built: Path) -> dict[str, dict]:
    return {q["id"]: q for q in json.loads((built / "bank.json").read_text(encoding="utf-8"))["questions"]}


def _pick_radio(page, target: int) -> None:
    """Keyboard only: from the focused radio of a group, arrow to option `target` (0-based), which checks it."""
    now = page.evaluate("() => [...document.activeElement.closest('ul').querySelectorAll('input')].indexOf(document.activeElement)")
    page.keyboard.press("Space")
    for _ in range(abs(target - now)):
        page.keyboard.press("ArrowDown" if target > now else "ArrowUp")


def test_keyboard_answer_announced_kept_over_reload_and_reset(page, context, built, server):
    q = _bank(built)["2.1-q.single"]
    options = q["parts"][0]["options"]
    right = next(i for i, o in enumerate(options) if o["correct"])
    wrong = (right + 1) % len(options)
    page.goto(server + "objective-2-1.html")
    feedback = page.locator(f"{SINGLE} .feedback")
    assert feedback.get_attribute("role") == "status" and feedback.get_attribute("aria-live") == "polite"

    tab_to(page, f"{SINGLE} input[type=radio]")
    _pick_radio(page, wrong)
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.textContent") == "Check answer"
    page.keyboard.press("Enter")
    assert feedback.text_content().startswith("Not quite.")
    page.keyboard.press("Shift+Tab")  # back to the checked radio
    _pick_radio(page, right)
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    text = feedback.inner_text()
    assert text.startswith("Correct.")
    assert "The manual says sprockets turn before gizmos." in text  # the explanation
    assert "Sprockets <in depth>" in text and "found on the page, 2026-11-29" in text  # the citation and its check
    assert axe_serious(page) == []

    page.reload()
    line = page.locator(f"{SINGLE} [data-qprogress]").text_content()  # this test runs on the real clock
    assert line.startswith("· last answer: right (") and line.endswith(" · next review in 1 minute")  # wrong first: Again
    assert page.evaluate("() => Object.keys(localStorage)") == [f"exam-prep:demo:progress-{PROGRESS_VERSION}"]
    page.goto(server + "index.html")
    total = page.locator(".progress-summary").text_content()
    assert total.startswith("1 of ") and total.endswith(", 0 right on the first try.")  # the first answer was wrong
    assert page.locator("[data-progress='2.1']").text_content().startswith("Progress: 1 of ")

    page.locator("button.reset").focus()
    page.keyboard.press("Enter")  # reset asks first, naming what it would erase; the focus is on keeping
    dialog = page.locator("dialog.reset-dialog")
    assert dialog.is_visible() and page.evaluate("() => document.activeElement.textContent") == "Keep my progress"
    assert dialog.locator("#reset-dialog-what").text_content() == (
        "This erases everything this browser keeps for DEMO-1: 1 question started (answers and review schedule), 1 review in the review log and 0 mock exam attempts.")
    page.keyboard.press("Escape")  # Escape keeps the progress
    assert not dialog.is_visible() and total == page.locator(".progress-summary").text_content()
    assert page.evaluate("() => document.activeElement.classList.contains('reset')")  # the focus back where it was
    page.keyboard.press("Enter")
    tab_to(page, "dialog.reset-dialog .reset-confirm")
    page.keyboard.press("Enter")
    assert page.locator(".progress-summary").text_content().startswith("Progress reset. 0 of ")
    page.reload()
    assert page.locator(".progress-summary").text_content().startswith("0 of ")
    assert context.offsite == [] and page.errors == []


def test_quotes_fold_behind_what_the_vendor_says_and_open_on_a_click(page, built):
    page.goto(_url(built, "objective-2-1.html"))
    folds = page.locator("details.callout")
    assert folds.count() == 2 and folds.first.locator("summary").inner_text() == "What Acme says (1)"
    quote = folds.first.locator("blockquote")
    assert not quote.is_visible()  # folded until asked for
    folds.first.locator("summary").click()
    assert quote.is_visible() and quote.inner_text().startswith("“")
    folds.nth(1).locator("summary").focus()
    page.keyboard.press("Enter")  # by keyboard too
    assert folds.nth(1).locator("blockquote").is_visible()
    assert page.errors == []


def _graded(q: dict) -> bool:
    """Whether the site grades the question itself (a written answer without accepted answers is the learner's to judge)."""
    return all(p["shape"] != "text" or p["accepted"] for p in q["parts"])




def test_every_question_type_is_marked_right_and_wrong_from_file_url(page, context, built):
    page.goto(_url(built, "practice.html"))  # file://: scripts come by <script src>, the CSP lets them run
    bank = _bank(built)
    first_of_type = {}
    for qid, q in bank.items():
        if graded(q):
            first_of_type.setdefault(q["type"], qid)
    assert set(first_of_type) == set(TYPES)
    for qid in first_of_type.values():
        form = page.locator(f"form[data-qid='{qid}']")
        form.locator("button.check").click()
        assert form.locator(".feedback").text_content() == "Answer every part first.", qid
        for right, verdict in ((False, "Not quite."), (True, "Correct.")):
            fill_answer(form, bank[qid], right)
            form.locator("button.check").click()
            assert form.locator(".verdict").text_content() == verdict, (qid, right)
    summary = page.locator(".progress-summary").text_content()
    assert summary == f"{len(TYPES)} of {len(bank)} questions answered, 0 right on the first try."  # wrong first, then right: not counted
    essay = next(qid for qid, q in bank.items() if not graded(q))
    form = page.locator(f"form[data-qid='{essay}']")
    form.locator("textarea").fill("My own words")
    form.locator("button.check").click()
    assert form.locator(".verdict").text_content() == "Compare your answer with the model answer:"
    assert context.offsite == [] and page.errors == []


def test_a_number_is_marked_right_within_its_tolerance_and_wrong_outside(page, context, built):
    page.goto(_url(built, "objective-2-1.html"))
    form = page.locator("form[data-qid='2.1-q.pi']")
    box = form.locator("input[type=text]")
    assert box.get_attribute("inputmode") == "decimal"
    verdicts = {}
    for typed in ("3.14", "3.2", "3.15", "3,14", "pi"):
        box.fill(typed)
        form.locator("button.check").click()
        verdicts[typed] = form.locator(".verdict").text_content()
    assert verdicts == {"3.14": "Correct.", "3.2": "Not quite.", "3.15": "Correct.", "3,14": "Not quite.", "pi": "Not quite."}
    assert "3.14 (± 0.01)" in form.locator(".feedback").text_content()  # the answer, shown after checking
    assert context.offsite == [] and page.errors == []


def test_practice_filters_by_section_and_difficulty(page, built):
    page.goto(_url(built, "practice.html"))
    page.select_option("#filter-section", "2")
    page.select_option("#filter-difficulty", "hard")
    shown = page.locator("form.question:visible")
    assert sorted(shown.evaluate_all("fs => fs.map(f => f.dataset.qid)")) == ["2.1-q.match_1", "2.1-q.order"]
    total = len(_bank(built))
    assert page.locator("#filter-status").text_content() == f"Showing 2 of {total} questions."


def test_search_finds_a_term_and_leads_to_it(page, context, built):
    page.goto(_url(built, "search.html"))
    page.locator("#search-input").focus()
    page.keyboard.type("flange")
    first = page.locator("#search-results a").first
    assert first.text_content() == "Term: Flange"
    assert page.locator("#search-status").text_content().endswith("for “flange”.")
    first.click()
    assert page.url.endswith("glossary.html#term-flange")
    assert page.locator("#term-flange dt").text_content() == "Flange"
    page.goto(_url(built, "search.html") + "?q=no+such+thing")
    assert page.locator("#search-status").text_content() == "0 results for “no such thing”."
    assert context.offsite == [] and page.errors == []


def test_every_internal_link_resolves_and_nothing_leaves_the_site(page, context, built):
    site = built / "site"
    links, ids = {}, {}
    for html in sorted(site.glob("*.html")):
        page.goto(html.as_uri())
        links[html.name] = page.evaluate("() => [...document.querySelectorAll('a[href]')].map(a => a.href)")
        ids[html.name] = set(page.evaluate("() => [...document.querySelectorAll('[id]')].map(e => e.id)"))
    root = site.as_uri() + "/"
    internal = [(name, url) for name, urls in links.items() for url in urls if url.startswith("file:")]
    assert len(internal) > 50
    for name, url in internal:
        target, _, fragment = url.removeprefix(root).partition("#")
        target = target.partition("?")[0]  # review.html?order=weakest: the page reads its query
        if target.startswith("assets/"):  # the published progress schema
            assert (site / target).is_file() and not fragment, f"{name}: {url} leads nowhere"
            continue
        assert target in ids, f"{name}: {url} leads nowhere"
        assert not fragment or fragment in ids[target], f"{name}: {url} has no #{fragment}"
    external = {url for urls in links.values() for url in urls if not url.startswith("file:")}
    assert external and all(url.startswith(("https://", "http://", "mailto:")) for url in external)
    assert context.offsite == [] and page.errors == []


@pytest.mark.parametrize("context", [{"color_scheme": "light"}, {"color_scheme": "dark"}], indirect=True, ids=["light", "dark"])
def test_axe_finds_nothing_serious_on_any_page_template(page, built):
    found = {}
    for name in TEMPLATE_PAGES:
        page.goto(_url(built, name))
        found[name] = axe_serious(page)
    assert found == {name: [] for name in TEMPLATE_PAGES}
    page.goto(_url(built, "practice.html"))
    page.evaluate("() => document.querySelector('form.question-short_answer label').remove()")  # axe can fail here
    assert ("label", "critical", 1) in axe_serious(page)


@pytest.mark.parametrize(("context", "background"), [({"color_scheme": "light"}, "rgb(255, 255, 255)"),
                                                    ({"color_scheme": "dark"}, "rgb(18, 20, 23)")], indirect=["context"], ids=["light", "dark"])
def test_colours_follow_the_system_scheme(page, built, background):
    page.goto(_url(built, "index.html"))
    assert page.evaluate("() => getComputedStyle(document.body).backgroundColor") == background


def test_print_shows_answers_and_hides_controls(page, built):
    page.goto(_url(built, "objective-2-1.html"))
    page.emulate_media(media="print")
    form = page.locator(SINGLE)
    assert form.locator(".answer-value").is_visible() and not form.locator("summary").is_visible()
    assert not form.locator("button.check").is_visible() and not page.locator("nav[aria-label=Site]").is_visible()


@pytest.mark.parametrize("context", [{"viewport": {"width": 375, "height": 800}}], indirect=True)
def test_pages_fit_a_phone_screen(page, built):
    wide = {}
    for name in TEMPLATE_PAGES:
        page.goto(_url(built, name))
        width = page.evaluate("() => document.documentElement.scrollWidth")
        if width > 375:
            wide[name] = width
    assert wide == {}


@pytest.mark.parametrize("context", [{"java_script_enabled": False}], indirect=True)
def test_without_javascript_pages_read_and_answers_open(page, context, built):
    page.goto(_url(built, "objective-2-1.html"))
    assert page.get_attribute("html", "data-js") is None  # site.js never ran
    form = page.locator(SINGLE)
    assert not form.locator("button.check").is_visible()
    assert not form.locator(".answer-value").is_visible()
    form.locator("summary").click()
    assert "Sprockets" in form.locator(".answer-value").inner_text()
    page.goto(_url(built, "practice.html"))
    assert not page.locator(".filters").is_visible() and page.locator("form.question").count() == len(_bank(built))
    page.goto(_url(built, "search.html"))
    assert page.locator("main").inner_text().find("Search needs JavaScript") >= 0
    for name, says in (("review.html", "Review needs JavaScript"), ("mock.html", "The mock exam needs JavaScript"),
                        ("mock-review.html", "The review reads your attempt from this browser, which needs JavaScript"), ("progress.html", "Progress is kept by JavaScript")):
        page.goto(_url(built, name))
        assert says in page.locator("main").inner_text() and page.locator("form.question:visible").count() == 0, name
    assert context.offsite == []


def test_question_ids_named_like_built_in_properties_start_unanswered(browser, tmp_path):
    """`constructor`, `toString`...: a plain object keyed by id would show them answered before any answer."""
    site = build_site(tmp_path, "valid", "builtin_ids")
    ctx = browser.new_context()
    offsite = []
    ctx.route("**/*", lambda route: route.continue_() if route.request.url.startswith((site / "site").as_uri()) else (offsite.append(route.request.url), route.abort()))
    page = ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(_url(site, "objective-1-3.html"))
    ids = ("constructor", "toString", "hasOwnProperty", "valueOf")
    assert [page.locator(f"form[data-qid='{qid}'] [data-qprogress]").text_content() for qid in ids] == [""] * 4
    assert page.locator("[data-progress='1.3']").first.text_content() == "0 of 4 questions answered, 0 right on the first try."
    for qid, given in (("constructor", "true"), ("valueOf", "true")):  # right, then wrong
        form = page.locator(f"form[data-qid='{qid}']")
        form.locator(f"input[value='{given}']").check()
        form.locator("button.check").click()
    assert page.locator("form[data-qid='constructor'] .verdict").text_content() == "Correct."
    assert page.locator("[data-progress='1.3']").first.text_content() == "2 of 4 questions answered, 1 right on the first try."
    page.reload()
    shown = [page.locator(f"form[data-qid='{qid}'] [data-qprogress]").text_content() for qid in ids]
    assert [line.split(" (")[0] for line in shown] == ["· last answer: right", "", "", "· last answer: not right"]
    stored = json.loads(page.evaluate("() => localStorage.getItem(Object.keys(localStorage)[0])"))
    assert sorted(stored["cards"]) == ["constructor", "valueOf"] and page.errors == [] and offsite == []
    ctx.close()
