"""A `check_yourself` prompt may say what a good answer holds (`answer:`): the guide's answer key prints it under
its prompt, and the site shows it only once the learner has tried (a place to write, then "I have my answer").

Either form of a prompt is valid, side by side. A fixture exam built for real: the guide read back with pypdf,
the site in Debian's chromium (keyboard only, axe-core clean).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from pypdf import PdfReader

from pipeline.cli import main
from tests.conftest import FIXTURES, TODAY, write_found_lock
from tests.kit.pdf import normalized
from tests.kit.studysite import axe_serious, guarded_context, page_of, tab_to

PLAIN = "Name the part a chain runs over."
PROMPT = "Say why a chain needs oil."
ANSWER = "Oil keeps the links from wearing against the pins and stops rust."
OBJECTIVE = f"""\
id: "1.1"
title: Chains
summary: How chains run.
reviewed: 2026-11-01
key_points:
  - id: 1.1-oil
    text: A chain runs over sprockets, and oil keeps its links from wearing against the pins.
    citations: [{{url: "https://example.com/chains", title: Chains, quote: Oil keeps the links from wearing.}}]
check_yourself:
  - {PLAIN}
  - prompt: {PROMPT}
    answer: {ANSWER}
"""


def _sources(base: Path, objective: str = OBJECTIVE) -> Path:
    folder = base / "sources" / "demo"
    folder.mkdir(parents=True)
    (folder / "exam.yaml").write_text((FIXTURES / "exams" / "valid.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "1.1-chains.yaml").write_text(textwrap.dedent(objective), encoding="utf-8")
    write_found_lock(folder)
    return base / "sources"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("check")
    assert main(["build", "-q", "--sources", str(_sources(base)), "--out", str(base / "out"), "--today", TODAY, "--only", "guide,site"]) == 0
    return base / "out" / "demo"


def test_a_misspelt_answer_key_is_one_error_at_its_line(tmp_path, capsys):
    sources = _sources(tmp_path, OBJECTIVE.replace("    answer:", "    answr:"))
    assert main(["validate", "-q", "--sources", str(sources), "--today", TODAY]) == 1
    errors = [line for line in capsys.readouterr().out.splitlines() if ": error: " in line]
    assert len(errors) == 1 and "check_yourself[1].answr: unknown key 'answr'; did you mean 'answer'?" in errors[0]
    assert errors[0].split(":")[1] == str(OBJECTIVE.splitlines().index("    answer: " + ANSWER) + 1)  # its line


def test_the_guide_key_prints_the_answer_under_its_prompt(built):
    reader = PdfReader(built / "study-guide.pdf")
    pages = [normalized(page.extract_text()) for page in reader.pages]
    key = next(n for n, text in enumerate(pages) if text.startswith("Answer key"))
    back = " ".join(pages[key:])
    assert "Check yourself What a good answer" in back
    assert "1.1 CHAINS" in back.upper() and f"2. {PROMPT} {ANSWER}" in back  # numbered as in the objective, the answer under it
    assert PLAIN not in back  # a prompt without an answer has nothing to print in the key
    body = " ".join(pages[:key])
    assert PROMPT in body and PLAIN in body and ANSWER not in body  # the objective asks; only the key answers


@pytest.fixture
def page(browser, built):
    with guarded_context(browser, ((built / "site").as_uri() + "/",)) as ctx:
        yield page_of(ctx)


def test_the_site_shows_the_answer_only_after_the_learner_tries(page, built):
    page.goto((built / "site" / "objective-1-1.html").as_uri())
    answered = page.locator("section.check-yourself li.check-answered")
    assert answered.count() == 1 and page.locator("section.check-yourself li").count() == 2
    answer = answered.locator(".check-answer-body")
    assert answered.locator(".check-prompt").inner_text() == PROMPT
    assert not answer.is_visible()  # hidden before the learner tries
    assert ANSWER not in page.locator("main").inner_text()

    tab_to(page, "section.check-yourself textarea")  # keyboard only: write an answer, then ask for the good one
    assert page.evaluate("() => document.activeElement.labels[0].textContent") == "Your answer"
    page.keyboard.type("It stops the links wearing.")
    assert not answer.is_visible()
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.tagName") == "SUMMARY"
    page.keyboard.press("Enter")
    assert answer.is_visible() and ANSWER in answer.inner_text() and "A good answer holds" in answer.inner_text()
    assert page.locator("section.check-yourself textarea").input_value() == "It stops the links wearing."  # theirs stays to compare
    assert page.errors == [] and page.context.offsite == []
    assert axe_serious(page, preload=False) == []  # opened, with the learner's text: no serious or critical violation
