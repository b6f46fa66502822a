"""The mock exam as a rehearsal, outside the browser: questions held out for mocks (`mock_only: true`) stay out
of practice (the site's practice pages and review data, the deck) and in the mock bank and the guide's practice
exam; drills stay out of both by default; the printed exam carries no difficulty or drill badge; the mock's
numbers are the author's choice unless exam.yaml's `exam_facts:` quote them, and those quotes are checked like
any other (validate reads the lock, audit fetches the page)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from bs4 import BeautifulSoup

from pipeline.citations.audit import CitationRef, Place
from pipeline.citations.fixmoves import Move, rewrite
from pipeline.citations.lock import CitationLock
from pipeline.load.yamlsource import Position
from pipeline.render.anki.deck_notes import notes
from pipeline.render.guide import appendix
from pipeline.render.guide.pdf import guide_html
from pipeline.render.site.html import render_page
from pipeline.render.site.site import pages
from tests.conftest import FIXTURES, TODAY, write_found_lock
from tests.kit.mock import FACT, HELD, cite_minutes, hold_out
from tests.kit.pageserver import PageServer, Reply
from tests.kit.pdf import context, load_sample


def _sources(tmp_path: Path, *objectives: str, exam: str = "mock", edit=None) -> Path:
    folder = tmp_path / "sources" / "demo"
    folder.mkdir(parents=True)
    shutil.copy(FIXTURES / "exams" / f"{exam}.yaml", folder / "exam.yaml")
    for name in objectives:
        shutil.copy(FIXTURES / "objectives" / f"{name}.yaml", folder / f"{name}.yaml")
    hold_out(folder)
    if edit:
        edit(folder)
    write_found_lock(folder)
    return tmp_path / "sources"


def _view(tmp_path: Path, edit=None):
    content = load_sample(_sources(tmp_path, "valid", "terms_four", "site_every_type", "mock_pool", edit=edit))
    return content, context(content, tmp_path / "out").view


def test_held_out_questions_stay_out_of_practice_and_drills_out_of_the_mock(tmp_path):
    _, view = _view(tmp_path)
    site = pages(view)
    practice = BeautifulSoup(_render(site, "practice.html"), "html.parser")
    mock = BeautifulSoup(_render(site, "mock.html"), "html.parser")
    shown = {f["data-qid"] for f in practice.select("form.question")}
    drawn = {f["data-qid"] for f in mock.select(".mock-bank form.question")}
    assert shown and drawn and not set(HELD) & shown and set(HELD) <= drawn
    generated = {q.id for q in view.questions if q.generated}
    assert generated and not generated & drawn  # drills stay out of the mock by default
    assert all(not f.select(".difficulty, .drill") for f in mock.select(".mock-bank form.question"))
    review = BeautifulSoup(_render(site, "review.html"), "html.parser")
    assert not set(HELD) & {f["data-qid"] for f in review.select("form.question")}
    fields = json.dumps([n.fields for n in notes(view)], ensure_ascii=False)
    stems = {q.id: q.stem_md for q in view.questions}
    assert all(stems[qid] not in fields for qid in HELD) and stems["1.1-q1"] in fields  # no card for a held-out question
    objective = BeautifulSoup(_render(site, "objective-2-1.html"), "html.parser")
    assert objective.select("form.question") and not objective.select(f"form[data-qid='{HELD[1]}']")


def _render(site: dict, name: str) -> str:
    template, values = site[name]
    return render_page(template, **values)


def test_the_bank_marks_the_held_out_questions(tmp_path, run_cli):
    sources = _sources(tmp_path, "valid", "terms_four", "site_every_type", "mock_pool")
    assert run_cli("build", "--sources", str(sources), "--today", TODAY, "--out", str(tmp_path / "out")).code == 0
    bank = json.loads((tmp_path / "out" / "demo" / "bank.json").read_text(encoding="utf-8"))
    assert tuple(map(int, bank["schema_version"].split("."))) >= (2, 2)  # mock_only came with 2.2
    assert sorted(q["id"] for q in bank["questions"] if q["mock_only"]) == sorted(HELD)


def test_the_printed_practice_exam_holds_the_held_out_questions_no_drill_and_no_badge(tmp_path):
    content, view = _view(tmp_path)
    items = appendix.practice_exam(view)
    ids = {i.question.id for i in items}
    assert set(HELD) <= ids and not any(i.question.generated for i in items)
    assert ids == {q.id for q in view.questions if not q.generated}
    with_drills = appendix.practice_exam(view, drills=True)
    assert any(i.question.generated for i in with_drills)
    html = guide_html(context(content, tmp_path / "out"))
    exam = BeautifulSoup(html, "html.parser").select_one("#practice-exam")
    assert len(exam.select(".question")) == len(items) and not exam.select(".difficulty, .drill")


def test_the_mock_facts_are_the_authors_choice_unless_quoted(tmp_path):
    _, view = _view(tmp_path / "plain")
    facts = BeautifulSoup(_render(pages(view), "mock.html"), "html.parser").select("ul.exam-facts li")
    assert [li.get_text(" ", strip=True) for li in facts] == [
        "10 questions : this guide's choice: no published number of questions is cited for the real exam.",
        "2 minutes : this guide's choice: no published time is cited for the real exam.",
        "60% to pass : this guide's choice: no published pass mark is cited for the real exam."]
    _, cited = _view(tmp_path / "cited", edit=lambda folder: cite_minutes(folder, "https://example.com/exam"))
    page = BeautifulSoup(_render(pages(cited), "mock.html"), "html.parser")
    minutes = page.select("ul.exam-facts li")[1]
    assert minutes.get_text(" ", strip=True) == f"2 minutes : as Acme says, “{FACT}” ( The exam page , not yet checked )."
    assert minutes.select_one("a")["href"] == "https://example.com/exam"
    coverage = page.select_one("p.coverage").get_text(" ", strip=True)
    assert coverage == "These notes cover 2 sections of the DEMO-1 exam: 1 Basics (40%), 2 More (60%), together 100% of the exam."


def test_validate_and_audit_check_the_exam_facts_quotes(tmp_path, run_cli):
    with PageServer() as server:
        server.add("/exam", Reply(body=f"<html><body><p>About the exam. {FACT} Good luck.</p></body></html>"))
        sources = _sources(tmp_path, "valid", edit=lambda folder: cite_minutes(folder, server.url("/exam")))
        exam_yaml = sources / "demo" / "exam.yaml"
        line = next(n for n, text in enumerate(exam_yaml.read_text(encoding="utf-8").splitlines(), 1) if FACT in text)
        before = run_cli("validate", "--sources", "sources", "--today", TODAY, cwd=tmp_path)
        assert f"sources/demo/exam.yaml:{line}:12: warning: exam_facts.minutes.quote: quote not checked against its page yet" in before.out, before.out
        audited = _audit(run_cli, tmp_path, "cache")
        assert "1 found" in audited.err  # the exam fact; the fixture's example.com quote is out of reach offline
        entry = CitationLock.load(sources / "demo").entry(server.url("/exam"), FACT)
        assert entry.status.value == "found"
        after = run_cli("validate", "--sources", "sources", "--today", TODAY, cwd=tmp_path)
        assert "exam_facts" not in after.out, after.out
        server.add("/exam", Reply(body="<html><body><p>The exam page was rewritten.</p></body></html>"))
        _audit(run_cli, tmp_path, "cache2")
        assert CitationLock.load(sources / "demo").entry(server.url("/exam"), FACT).status.value == "missing"
        again = run_cli("validate", "--sources", "sources", "--today", TODAY, cwd=tmp_path)
        assert again.code == 1
        assert f"sources/demo/exam.yaml:{line}:12: error: exam_facts.minutes.quote: quote not on the page at the last audit" in again.out, again.out


def _audit(run_cli, tmp_path: Path, cache: str):
    return run_cli("audit", "--sources", "sources", "--today", TODAY, "--retries", "0", "--interval", "0", "--timeout", "2",
                   "--cache", str(tmp_path / cache), "--no-archive", "--allow-host", "127.0.0.1", cwd=tmp_path)


EXAM_WITH_FACT = """id: demo
exam_facts:
  minutes:
    url: http://old.example/exam   # the vendor's page
    title: The exam page
    quote: "The exam lasts two minutes."
"""


def test_fix_moves_rewrites_an_exam_facts_address_in_exam_yaml():
    ref = CitationRef(None, Place(Path("exam.yaml"), Position(6, 12)), "http://old.example/exam", FACT, "", "exam-facts.minutes", (0, 0),
                      node=("exam_facts", "minutes"))
    after, lines = rewrite(EXAM_WITH_FACT, [Move(ref, "https://new.example/exam")], Path("exam.yaml"))
    assert after == EXAM_WITH_FACT.replace("http://old.example/exam", "https://new.example/exam") and lines == [4]
