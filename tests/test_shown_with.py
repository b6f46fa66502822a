"""What a learner sees with an item is part of the item (issue 34, Build 2 and 3).

The check reads the outputs as a learner meets them: the site's pages (the page heading, crumbs, header
and title above each question; the stem of a question the learner answers by writing) and the deck's
cards as Anki renders them (the front's visible text in chromium, and the deck the card sits in). Every
form of every answer (a fill-in's accepted answers, a number, a term-like right option, a definition
card's term and its names, a cloze card's hidden phrase) must be absent, compared by the one grading rule
(pipeline/shapes/grading.py) over every run of words, and word for word by stem.

Fixtures: `heldout` (tests/fixtures/exams/heldout.yaml, objectives heldout_training and heldout_serving),
a glossary of 23 training and inference terms the generator was never tuned on, without a `kind:`; and
the same exam with one objective retitled to name its cloze ("Serving with a KV cache"): the planted leak.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest
from bs4 import BeautifulSoup

from pipeline.practice import term_forms
from pipeline.shapes.grading import answer_key, normalise
from pipeline.text import cloze
from pipeline.text.word_forms import stem
from tests.conftest import FIXTURES, TODAY, write_found_lock

TERM_WORDS = 4


def heldout(tmp_path: Path, retitle: str | None = None) -> Path:
    folder = tmp_path / "sources" / "heldout"
    folder.mkdir(parents=True)
    shutil.copy(FIXTURES / "exams" / "heldout.yaml", folder / "exam.yaml")
    for name in ("heldout_training", "heldout_serving"):
        shutil.copy(FIXTURES / "objectives" / f"{name}.yaml", folder / f"{name}.yaml")
    if retitle:
        path = folder / "heldout_serving.yaml"
        path.write_text(path.read_text(encoding="utf-8").replace("title: Serving large models", f"title: {retitle}"), encoding="utf-8")
    write_found_lock(folder)
    return tmp_path / "sources"


# --- the independent reader: which runs of words of a text are a form of an answer -------------------


def _words(text: str) -> list[str]:
    """The text's words as written between spaces, each normalised: "8-bit" stays one word ("8 bit"), so
    it is not the answer 8, as a grader does not take "8-bit" for 8."""
    return [w for w in (normalise(w) for w in text.split()) if w]


def shows(text: str, forms: list[str]) -> list[str]:
    """The runs of words of `text` that grade as one of `forms`, or match one word for word by stem."""
    words = _words(text)
    found = []
    for form in forms:
        key, stems, size = answer_key(form), [stem(w) for w in normalise(form).split()], len(_words(form))
        for n in range(1, size + 2):
            for i in range(len(words) - n + 1):
                run = words[i : i + n]
                if answer_key(" ".join(run)) == key or [stem(w) for part in run for w in part.split()] == stems:
                    found.append(" ".join(run))
    return found


def bank_forms(question: dict) -> list[str]:
    """Every form of a bank question's answer a learner would recall (none for pairs, orders, statements)."""
    forms = []
    for part in question["parts"]:
        shape = part["shape"]
        if shape == "text":
            forms += part.get("accepted") or []
        elif shape == "numeric":
            forms += [part["value_text"], *([f"{part['value_text']} {part['unit']}"] if part.get("unit") else [])]
        elif shape == "choices" and not part.get("true_false"):
            forms += [o["text"] for o in part["options"] if o["correct"] and len(o["text"].split()) <= TERM_WORDS]
    return forms


def site_leaks(site: Path, bank: dict) -> tuple[list[str], int]:
    """(leaks, questions read) over every page of the site that shows a question."""
    by_id, leaks, read = {q["id"]: q for q in bank["questions"]}, [], 0
    for page in sorted(site.glob("*.html")):
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        around = " | ".join(e.get_text(" ") for e in soup.select("title, header, h1, .crumbs"))
        for form in soup.select("form.question[data-qid]"):
            question = by_id[form["data-qid"]]
            shown = around
            if not any(p["shape"] == "choices" for p in question["parts"]):  # a written answer: its stem is shown with it
                shown += " | " + form.select_one(".stem").get_text(" ")
            read += 1
            leaks += [f"{page.name} {question['id']}: {hit!r}" for hit in shows(shown, bank_forms(question))]
    return leaks, read


def _visible(page, card, html: str) -> str:
    page.set_content(f'<html><head><style>{card.note_type()["css"]}</style></head><body><div class="card card{card.ord + 1}">{html}</div></body></html>')
    return page.inner_text("body")


def deck_leaks(apkg: Path, bank: dict, learner: Path, page) -> tuple[list[str], int]:
    """(leaks, cards read): each card's visible front and deck name against its answer's forms."""
    by_id = {q["id"]: q for q in bank["questions"]}
    learner.mkdir()
    col = Collection(str(learner / "collection.anki2"))
    col.import_anki_package(ImportAnkiPackageRequest(package_path=str(apkg), options=ImportAnkiPackageOptions()))
    leaks, read = [], 0
    for card in (col.get_card(i) for i in col.find_cards("")):
        note, template = card.note(), card.template()["name"]
        if template == "Definition to term":
            term = re.sub(r"<[^>]+>", "", note["Term"])
            forms = sorted(term_forms.forms(term, re.sub(r"<[^>]+>", " ", note["Definition"]))) + [term]
        elif template == "Cloze":
            forms = [re.sub(r"<[^>]+>", "", m.answer) for m in cloze.marks(note["Text"]) if m.number == card.ord + 1]
        elif template == "Question" and note["Ref"] in by_id:
            forms = bank_forms(by_id[note["Ref"]])
        else:  # a term's own front, a worked example, a self-graded prompt: nothing to recall on the front
            continue
        read += 1
        front = BeautifulSoup(card.question(), "html.parser")
        if template == "Question" and any(p["shape"] == "choices" for p in by_id[note["Ref"]]["parts"]):
            for shown_by_design in front.select(".stem, .options"):  # a choice item shows its options: only what is around them counts
                shown_by_design.decompose()
        shown = _visible(page, card, str(front)) + " | " + col.decks.name(card.did)
        leaks += [f"{template} {note['Ref']}: {hit!r}" for hit in shows(shown, forms)]
    col.close()
    return leaks, read


def built(run_cli, sources: Path, out: Path) -> tuple[Path, dict]:
    result = run_cli("build", "--sources", str(sources), "--today", TODAY, "--out", str(out))
    assert result.code == 0, result.err
    folder = out / "heldout"
    return folder, json.loads((folder / "bank.json").read_text(encoding="utf-8"))


# --- the checks -------------------------------------------------------------------------------------


def test_no_answer_is_shown_with_its_item_on_the_site_or_the_deck(run_cli, tmp_path, browser):
    folder, bank = built(run_cli, heldout(tmp_path), tmp_path / "out")
    leaks, questions = site_leaks(folder / "site", bank)
    assert questions >= 10 and leaks == []
    leaks, cards = deck_leaks(folder / "deck.apkg", bank, tmp_path / "learner", browser.new_page())
    assert cards >= 15 and leaks == []


def test_a_planted_title_that_names_the_answer_is_caught_everywhere(run_cli, tmp_path, browser):
    sources = heldout(tmp_path, retitle="Serving with a KV cache")
    result = run_cli("validate", "-v", "--sources", str(sources), "--today", TODAY)
    # the authored cloze mark: a warning at its line; the drill made from it: dropped; the term: one card
    assert any(":7:" in line and "[item-answer-in-context]" in line and "'kv cache'" in line for line in result.lines), result.out
    assert "dropped gen-cloze-1.2-kv-cache-c1 (cloze): context_shows_answer" in result.err
    assert "no definition -> term card for 'KV cache' (1.2)" in result.err
    folder, bank = built(run_cli, sources, tmp_path / "out")
    assert "gen-cloze-1.2-kv-cache-c1" not in {q["id"] for q in bank["questions"]}
    leaks, _ = deck_leaks(folder / "deck.apkg", bank, tmp_path / "learner", browser.new_page())
    # the authored card the lint warned about: the reader sees it too, in its context line and its deck name
    assert leaks and {leak.split(":")[0] for leak in leaks} == {"Cloze 1.2-kv-cache"} and "Cloze 1.2-kv-cache: 'kv cache'" in leaks


def test_the_reader_finds_every_form_a_grader_accepts():
    assert shows("6.2 Hyper-parameter tuning", ["hyperparameter"]) == ["hyper parameter"]
    assert shows("Tuning hyperparameters", ["a hyperparameter"]) == ["hyperparameters"]
    assert shows("Recomputing activations", ["activation recomputing"]) == []  # order matters: not the phrase
    assert shows("Eight GPUs", ["8"]) == ["eight"] and shows("6.2 Tuning", ["2"]) == [] and shows("8-bit integers", ["8"]) == []


def test_kinds_come_from_what_the_terms_are(run_cli, tmp_path):
    """On the held-out glossary the which-term rule finds four kinds of parallelism to choose among: their
    definitions say "A training technique", "A form of model parallelism", "Splitting ..."."""
    import datetime as dt

    from pipeline.check.validate import validate
    from pipeline.practice.generate import generate
    from pipeline.practice.terms import sourced_terms

    folder = heldout(tmp_path) / "heldout"
    content = validate(folder.parent, dt.date.fromisoformat(TODAY)).exams[0]
    kinds = {t.term.term: t.kind for t in sourced_terms(content)}
    parallel = [t for t in kinds if "parallel" in t.casefold() or t in ("ZeRO",)]
    assert len(parallel) == 7 and {kinds[t] for t in parallel} == {"technique"}
    assert kinds["vLLM"] == kinds["NCCL"] == "tool" and kinds["Throughput"] == kinds["Time to first token"] == "metric"
    which = [q.question.id for q in generate(content).questions if q.rule == "which-term"]
    assert len(which) >= 23 // 4 and {"gen-which-term-tensor-parallelism", "gen-which-term-pipeline-parallelism"} <= set(which)
    result = run_cli("validate", "--sources", str(folder.parent), "--today", TODAY)
    assert "which-term kept" not in result.err  # more than a quarter: nothing to say


THIN = """id: "1.1"
title: Odds and ends
summary: Terms of as many kinds as there are terms.
reviewed: 2026-11-01
key_points:
  - id: 1.1-odds
    text: Serving has phases, metrics and tools.
    citations:
      - {url: https://example.com/odds, title: Odds, quote: Serving has phases.}
terms:
"""
THIN_TERMS = [("Prefill", "The first phase of generation, in which the whole prompt is read at once."),
              ("Goodput", "The metric of requests served within their latency targets, per second of serving."),
              ("Triton", "An inference server that batches requests from many clients for one model."),
              ("Arena", "A memory pool from which the allocator hands out blocks without asking the system."),
              ("Ring", "A topology in which each GPU sends to its right neighbour and receives from its left one."),
              ("Shard", "A slice of a tensor that one GPU holds while the others hold the remaining slices.")]


def test_validate_says_in_one_line_what_to_declare_when_a_rule_keeps_little(run_cli, tmp_path):
    folder = tmp_path / "sources" / "heldout"
    folder.mkdir(parents=True)
    shutil.copy(FIXTURES / "exams" / "heldout.yaml", folder / "exam.yaml")
    terms = "".join(f"  - term: {t}\n    definition: {d}\n" for t, d in THIN_TERMS)
    (folder / "odds.yaml").write_text(THIN + terms, encoding="utf-8")
    write_found_lock(folder)
    result = run_cli("validate", "--sources", str(folder.parent), "--today", TODAY)
    lines = [line for line in result.err.splitlines() if "which-term kept" in line]
    assert len(lines) == 1, result.err
    assert lines[0].startswith("heldout: which-term kept 0 of 6 drills; 6 dropped as too_few_distractors: their kinds read from the definitions ("), lines[0]
    assert lines[0].endswith("declare `kind:` on the terms that are the same kind of thing (e.g. `kind: technique`, `kind: metric`)"), lines[0]
    # declared, they make drills: the line goes
    declared = re.sub(r"(    definition: )", "    kind: serving idea\n\\1", (folder / "odds.yaml").read_text(encoding="utf-8"))
    (folder / "odds.yaml").write_text(declared, encoding="utf-8")
    result = run_cli("validate", "--sources", str(folder.parent), "--today", TODAY)
    assert result.code == 0 and "which-term kept" not in result.err, result.err


@pytest.mark.parametrize(("term", "definition", "why"), [
    ("bfloat16", "A 16-bit floating-point format with the exponent range of float32.", "'16', 'floating'"),
    ("Activation recomputation", "Saving memory by keeping some activations and spending extra compute to rebuild the rest.", "'activations'"),
    ("GradScaler", "PyTorch's helper that multiplies the loss by a scale factor before the backward pass.", "'scale'"),
    ("Memory-bound", "Said of a layer whose time goes to moving data to and from memory rather than to arithmetic.", "'memory'"),
])
def test_a_definition_that_needs_its_term_gets_no_definition_card(term, definition, why):
    from pipeline.practice.term_cards import one_way_reason
    from schema.models import Term

    reason = one_way_reason(Term(term=term, definition=definition), ())
    assert reason is not None and why in reason
    assert one_way_reason(Term(term="Hydra", definition="The configuration framework NeMo uses to compose settings."), ()) is None
