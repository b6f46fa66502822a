"""`feedback:` in exam.yaml: a report address with the question's id, linked on every question of the site (not
while a mock exam runs: on its review) and on the back of every question card, as Anki renders it. A template
without {id}, or outside the link allow list, is a content error at its line."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest
from bs4 import BeautifulSoup

from tests.conftest import FIXTURES, TODAY, write_found_lock

TEMPLATE = "https://example.com/issues/new?title=Question%20{id}&labels=item"


def _sources(tmp_path: Path, feedback: str) -> Path:
    folder = tmp_path / "sources" / "demo"
    folder.mkdir(parents=True)
    exam = (FIXTURES / "exams" / "mock.yaml").read_text(encoding="utf-8")
    (folder / "exam.yaml").write_text(exam + f"feedback: {json.dumps(feedback)}\n", encoding="utf-8")
    for name in ("valid", "terms_four", "site_every_type"):
        shutil.copy(FIXTURES / "objectives" / f"{name}.yaml", folder / f"{name}.yaml")
    write_found_lock(folder)
    return tmp_path / "sources"


def _expected(qid: str) -> str:
    return TEMPLATE.replace("{id}", re.sub(r"[^A-Za-z0-9_.~-]", lambda m: f"%{ord(m.group()):02X}", qid))


def test_every_question_of_the_site_and_every_question_card_links_its_report(run_cli, tmp_path):
    sources = _sources(tmp_path, TEMPLATE)
    result = run_cli("build", "--sources", str(sources), "--today", TODAY, "--out", str(tmp_path / "out"))
    assert result.code == 0, result.err
    out = tmp_path / "out" / "demo"
    bank = json.loads((out / "bank.json").read_text(encoding="utf-8"))["questions"]
    practice = BeautifulSoup((out / "site" / "practice.html").read_text(encoding="utf-8"), "html.parser")
    forms = practice.select("form.question")
    assert len(forms) == len(bank) > 5
    for form in forms:
        assert [a["href"] for a in form.select("p.report a")] == [_expected(form["data-qid"])]
    mock = BeautifulSoup((out / "site" / "mock.html").read_text(encoding="utf-8"), "html.parser")
    assert mock.select(".mock-bank form.question") and not mock.select(".mock-bank p.report")  # not while the clock runs
    review = BeautifulSoup((out / "site" / "mock-review.html").read_text(encoding="utf-8"), "html.parser")
    assert all(f.select_one("p.report a")["href"] == _expected(f["data-qid"]) for f in review.select("form.question"))

    (tmp_path / "learner").mkdir()
    col = Collection(str(tmp_path / "learner" / "collection.anki2"))
    col.import_anki_package(ImportAnkiPackageRequest(package_path=str(out / "deck.apkg"), options=ImportAnkiPackageOptions()))
    cards = [col.get_card(i) for i in col.find_cards("")]
    ids = {q["id"] for q in bank}
    owner = {c.id: next((i for i in sorted(ids, key=len, reverse=True) if c.note()["Ref"] == i or c.note()["Ref"].startswith(i + "-")), None) for c in cards}
    questions = [c for c in cards if c.note_type()["name"].startswith("Exam prep: question") and owner[c.id]]  # not Check yourself prompts
    assert len(questions) > 5
    for card in questions:
        back, front = BeautifulSoup(card.answer(), "html.parser"), BeautifulSoup(card.question(), "html.parser")
        links = [a["href"] for a in back.select("p.report a")]
        assert links == [_expected(owner[card.id])], card.note()["Ref"]  # a matching question's cards link the question
        assert not front.select("p.report")  # on the back only
    col.close()


@pytest.mark.parametrize(("template", "why"), [
    ("https://example.com/issues/new", "must hold {id}"),
    ("javascript:alert({id})", "must be an absolute http:// or https:// address"),
    ("mailto:notes@example.com?subject=Question {id}", "must not contain spaces"),
    ("https://example.com/{id}/{who}", "no other {...}"),
])
def test_a_bad_feedback_template_is_a_content_error_at_its_line(run_cli, tmp_path, template, why):
    sources = _sources(tmp_path, template)
    result = run_cli("validate", "--sources", str(sources), "--today", TODAY, cwd=tmp_path)
    line = len((sources / "demo" / "exam.yaml").read_text(encoding="utf-8").splitlines())
    assert result.code == 1
    assert re.search(rf"sources/demo/exam\.yaml:{line}:\d+: error: feedback: .*{re.escape(why)}", result.out), result.out


def test_a_mailto_template_is_accepted(run_cli, tmp_path):
    sources = _sources(tmp_path, "mailto:notes@example.com?subject=Question%20{id}")
    assert run_cli("validate", "--sources", str(sources), "--today", TODAY, cwd=tmp_path).code == 0
