"""Generated items (drills) as a learner meets them in the outputs: no stem, option or prompt holds a form
of its answer (compared by word stem), in the bank and on the site; every one passes the item lint;
check_yourself prompts are in the guide. Over the complete fixture exam and a glossary built to tempt leaks
(`glossary_leaks`: inflected forms, possessives, acronyms inside definitions).
"""

from __future__ import annotations

import json
import shutil

import pytest
from bs4 import BeautifulSoup

from pipeline.check.item_lint import question_findings
from pipeline.practice import term_forms
from pipeline.practice.generate import generate
from pipeline.text import word_forms
from pipeline.text.plaintext import to_plain
from tests.conftest import FULL, TODAY
from tests.kit.pdf import load_sample, normalized, render_into


def _forms(term: str, glossary: dict[str, str]) -> word_forms.AnswerForms:
    return word_forms.answer_forms(term, *term_forms.forms(term, glossary[term]))


def _build(run_cli, sources, out):
    result = run_cli("build", "--sources", str(sources), "--today", TODAY, "--out", str(out))
    assert result.code == 0, result.err
    exam = next(p for p in out.iterdir() if not p.name.startswith("."))
    return json.loads((exam / "bank.json").read_text(encoding="utf-8")), exam


@pytest.fixture(params=["full", "leaks"])
def built(request, run_cli, make_sources, tmp_path):
    sources = shutil.copytree(FULL, tmp_path / "src") if request.param == "full" else make_sources("valid", "terms_four", "glossary_leaks")
    bank, exam = _build(run_cli, sources, tmp_path / "out")
    glossary = {t.term: t.definition for o in load_sample(sources).objectives for t in o.terms}
    return bank, exam, glossary


def _leaks(q: dict, glossary: dict[str, str], texts) -> list[str]:
    """What of `texts` (the stem as the output shows it), the options and the prompts holds a form of the answer."""
    part, found = q["parts"][0], []
    if q["generated"] == "which-term":
        answer = next(o["text"] for o in part["options"] if o["correct"])
        forms = _forms(answer, glossary)
        found += [t for t in texts["stem"] + [o["text"] for o in part["options"] if not o["correct"]] if word_forms.found(forms, t)]
    elif q["generated"] == "matching":
        answers = {a["id"]: a["text"] for a in part["answers"]}
        found += [p["prompt"] for p in part["prompts"] if word_forms.found(_forms(answers[p["answer_id"]], glossary), p["prompt"])]
        found += [p["prompt"] for p in part["prompts"] if "_____" in p["prompt"]]
        found += ["as many answers as prompts"] * (len(part["answers"]) <= len(part["prompts"]))
    elif q["generated"] == "cloze":
        forms = word_forms.answer_forms(*part["accepted"])
        found += [t for t in texts["stem"] if word_forms.found(forms, t)]
    return found


def test_no_drill_shows_a_form_of_its_answer_in_the_bank_or_on_the_site(built):
    bank, exam, glossary = built
    pages = {p.name: BeautifulSoup(p.read_text(encoding="utf-8"), "html.parser") for p in (exam / "site").glob("objective-*.html")}
    drills = [q for q in bank["questions"] if q["generated"]]
    assert len(drills) >= 8
    for q in drills:
        assert _leaks(q, glossary, {"stem": [to_plain(q["stem"])]}) == [], q["id"]
        page = pages[f"objective-{q['objective'].replace('.', '-')}.html"]
        form = next(f for f in page.select("form.question") if f["data-qid"] == q["id"])
        shown = normalized(form.select_one(".stem").get_text(" "))
        assert _leaks(q, glossary, {"stem": [shown]}) == [], (q["id"], shown)
        assert "drill" in form.select_one(".question-head").get_text()  # marked as a drill
        assert q["title"].startswith("Drill: ")


def test_every_drill_of_the_sample_passes_the_item_lint():
    content = load_sample()
    generation = generate(content)
    assert len(generation.questions) >= 9  # those whose objective's title shows the answer are dropped, and reused option sets
    assert [(s.question.id, question_findings(s.question)) for s in generation.questions if question_findings(s.question)] == []


def test_check_yourself_prompts_end_their_objective_in_the_guide(tmp_path):
    content = load_sample()
    text = normalized(" ".join(p.extract_text() for p in render_into(content, tmp_path).pages))
    prompts = [p for o in content.objectives for p in o.check_yourself]
    assert len(prompts) == 4
    for prompt in prompts:
        assert normalized(prompt.replace("`", "")) in text, prompt
