"""Exam essentials keep what is tested (issue 34 item 7): an authored `essential:` per key point, else the
whole point without its tables; `essential-drops-tested` at the essential's line (or the point's text) when a
question citing the point keys a number or glossary term, or its cloze mark hides a phrase, that the point
states and its essential leaves out. The guide prints what the check reads (pipeline/text/essential.py)."""

from __future__ import annotations

import datetime as dt
import shutil
from decimal import Decimal

import pytest

from pipeline.check.essentials import Fact
from pipeline.check.validate import validate
from pipeline.render.guide.pdf import guide_html
from pipeline.text.essential import printed
from tests.conftest import FIXTURES, TODAY, write_found_lock
from tests.kit.pdf import context, load_sample, pdf_text, render_into

CODE = "essential-drops-tested"


@pytest.fixture(scope="module")
def sources(tmp_path_factory):
    folder = tmp_path_factory.mktemp("essentials") / "sources" / "demo"
    folder.mkdir(parents=True)
    shutil.copy(FIXTURES / "exams" / "valid.yaml", folder / "exam.yaml")
    for name in ("valid", "essentials"):
        shutil.copy(FIXTURES / "objectives" / f"{name}.yaml", folder / f"{name}.yaml")
    write_found_lock(folder)
    return folder.parent


def test_an_essential_dropping_a_tested_fact_warns_at_its_line_and_one_keeping_it_does_not(sources):
    """1.4-drops leaves out q1's "30%" (warned at its essential); 1.4-keeps says "30 percent" and
    "sequence-packing" (by value, by form: no warning); 1.4-whole has no essential and the whole point stands in
    (no warning, and q5's 1648, a number the question computes and the point never states, is not the
    essential's to keep); 1.4-table's tested 5 is only in its table, which the stand-in leaves out (warned at its
    text); 1.4-cloze's essential drops the phrase its cloze card hides (and its own 3 and 4 are unbacked)."""
    report = validate(sources, dt.date.fromisoformat(TODAY)).report
    found = [(d.position.line, d.message) for d in report.sorted() if d.code == CODE]
    assert found == [
        (8, "key_points[0].essential: the exam essential leaves out what is tested: '30%' (tested by 1.4-q1); add it to the essential"),
        (21, "key_points[3].text: the exam essential leaves out what is tested: '5' (tested by 1.4-q4); the whole point stands in "
             "without its tables and figures: write an `essential:` that keeps it"),
        (31, "key_points[4].essential: the exam essential leaves out what is tested: 'attention mask' (tested by its cloze card); add it to the essential"),
    ]
    assert all(d.severity.value == "warning" and d.path.name == "essentials.yaml" for d in report.items if d.code == CODE)
    unbacked = [(d.position.line, d.message.split(":")[0]) for d in report.sorted() if d.code == "number-unbacked"]
    assert unbacked == [(31, "key_points[4].essential")]  # an essential's figures are backed like the point's


def test_facts_are_numbers_by_value_and_terms_by_their_forms():
    percent, tokens = Fact("30%", value=Decimal(30)), Fact("1048", value=Decimal(1048))
    term = Fact("Dynamic batching", forms=("Dynamic batching", "request batching"))
    assert percent.in_text("adds about 30 percent") and percent.in_text("about 30 %") and not percent.in_text("FP30 or 30-bit")
    assert tokens.in_text("1,048 of them") and not tokens.in_text("10,480")
    assert term.in_text("Dynamic-Batching joins requests") and term.in_text("two request batchings") and not term.in_text("batching alone")


def test_the_whole_point_stands_in_without_its_tables_and_figures():
    text = "A {{c1::mask}} keeps them apart.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n![A figure](figures/f.svg)\n\nThe last sentence."
    assert printed(None, text) == "A **mask** keeps them apart. The last sentence."
    assert printed("Only **this**.", text) == "Only **this**."


def test_the_guide_prints_the_authored_essential_or_the_whole_point(sources, tmp_path):
    content = load_sample(sources)
    html = guide_html(context(content, tmp_path / "html"))
    box = html[html.rindex('<aside class="essentials">'):]
    box = box[: box.index("</aside>")]
    assert "<li>Recomputation trades extra compute for activation memory.</li>" in box
    assert "It saves activation memory" not in box  # the point's text is the body's; the box prints its essential
    assert "<li>FP16 keeps few exponent bits, so its range is narrow.</li>" in box and "Exponent bits" not in box
    assert "Things are <strong>made of stuff</strong>." in html  # a stand-in's cloze phrase in bold, as before
    text = pdf_text(render_into(content, tmp_path / "pdf"))
    read = text[text.rindex("EXAM ESSENTIALS"):]
    read = read[: read.index("Practice exam")]
    for bullet in ("Recomputation trades extra compute for activation memory.",
                   "Recomputation adds about 30 percent per layer; sequence-packing removes padding.",
                   "Sequence packing concatenates short examples into packs of 512 tokens.",
                   "Packed examples need a mask, in 3 of 4 models."):
        assert bullet in read, read
    assert "It saves activation memory" not in read and "Exponent bits" not in read
