"""The study guide reads like a book: measured on the real PDF (weasyprint, read back with pypdf).

Body text 10.5-11 pt with a median line of 60-75 characters; an objectives map at the front; a mixed
practice exam numbered 1..N across objectives; glossary entries pointing at the page where the term is
explained; code lines cut at the block's width marked as continued; write-in space sized to the answer.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter, defaultdict

import pytest

from pipeline.render.guide import appendix, book
from pipeline.render.guide.context import build_guide
from pipeline.render.guide.pdf import guide_html
from tests.kit.pdf import context, load_sample, outline_entry, pdf_text, render_into


@pytest.fixture(scope="module")
def sample():
    return load_sample()


@pytest.fixture(scope="module")
def guide_pdf(sample, tmp_path_factory):
    return render_into(sample, tmp_path_factory.mktemp("book"))


def _lines(reader):
    """(font size, characters) of every printed line, a line being the text runs at one height of a page."""
    lines = []
    for page in reader.pages:
        rows = defaultdict(list)

        def visit(text, cm, tm, font, size, rows=rows):
            if text.strip():
                scale = (tm[0] ** 2 + tm[1] ** 2) ** 0.5 * (cm[0] ** 2 + cm[1] ** 2) ** 0.5
                rows[round(tm[5] * cm[3] + cm[5])].append((round(size * scale, 2), text.replace("\n", "")))

        page.extract_text(visitor_text=visit)
        for runs in rows.values():
            sizes = Counter()
            for size, text in runs:
                sizes[size] += len(text)
            lines.append((sizes.most_common(1)[0][0], sum(len(t) for _, t in runs)))
    return lines


def test_body_is_10_5_to_11_pt_with_a_median_line_of_60_to_75_characters(guide_pdf):
    lines = _lines(guide_pdf)
    sizes = Counter()
    for size, chars in lines:
        sizes[size] += chars
    body_size = sizes.most_common(1)[0][0]  # the size most characters are set in
    assert 10.5 <= body_size <= 11, sizes.most_common(3)
    body = [chars for size, chars in lines if size == body_size]
    assert 60 <= statistics.median(body) <= 75, statistics.median(body)


def test_objectives_map_at_the_front_gives_weight_and_page(guide_pdf, sample):
    start = guide_pdf.get_destination_page_number(outline_entry(guide_pdf, "Objectives map"))
    text = pdf_text(guide_pdf, first_page=start)
    for objective in sample.objectives:
        page = guide_pdf.get_destination_page_number(outline_entry(guide_pdf, f"{objective.id} {objective.title}")) + 1
        assert re.search(rf"{re.escape(objective.id)} {re.escape(objective.title)}.*?{page}", text), objective.id
    assert start < guide_pdf.get_destination_page_number(outline_entry(guide_pdf, "Section 6: Performance Optimization"))


def test_practice_exam_numbers_run_1_to_n_across_objectives(sample, tmp_path):
    items = build_guide(context(sample, tmp_path)).practice
    assert [i.number for i in items] == list(range(1, len(items) + 1))
    authored = {q.id for _, q in sample.questions()}
    assert authored == {i.question.id for i in items}  # drills stay out by default (mock_exam.drills)
    with_drills = appendix.practice_exam(context(sample, tmp_path).view, drills=True)
    assert authored < {i.question.id for i in with_drills} and any(i.question.generated for i in with_drills)
    objectives = [i.objective.id for i in items]
    assert objectives != sorted(objectives)  # mixed, not objective by objective
    assert items == build_guide(context(sample, tmp_path)).practice  # the same order every build


def test_each_objective_ends_with_exam_essentials(sample, tmp_path):
    html = guide_html(context(sample, tmp_path))
    assert html.count('<p class="essentials-title">Exam essentials</p>') == len(sample.objectives)
    assert "multiples of <strong>8</strong> with FP16" in html  # a cloze phrase: what the author marked as testable


def test_glossary_points_at_the_key_point_where_the_term_is_explained(sample, tmp_path):
    ctx = context(sample, tmp_path)
    html = guide_html(ctx)
    entries = build_guide(ctx).glossary
    assert len(entries) == len(list(sample.terms())) > 0  # the sample has a glossary: the loop below checks each of its terms
    for entry in entries:
        assert f'<div class="term" id="term-{book_slug(entry.term)}"><dt>{entry.term}</dt>' in html  # the key-terms box stays
        point = entry.explained.point
        assert point is not None, entry.term  # every term of the sample is mentioned by a key point
        assert entry.anchor == f"kp-{point.id}" and f'<div class="key-point" id="kp-{point.id}">' in html
        assert f'explained on <a class="page-ref" href="#kp-{point.id}">' in html


def book_slug(term: str) -> str:
    from pipeline.text.slug import slug

    return slug(term)


def test_labs_are_described_once_and_pointed_at_after(sample, tmp_path):
    html = guide_html(context(sample, tmp_path))
    labs = "".join(part.split("</ul>")[0] for part in html.split('<ul class="labs">')[1:])
    listed = {lab.url for o in sample.objectives for lab in o.labs}
    assert listed and all(labs.count(f'href="{url}"') == 1 for url in listed)  # one description, one link, per lab
    assert "the lab described with 6.2" in labs  # the sample lists its LoRA lab under 6.2 and 6.3


def test_long_code_lines_are_cut_at_spaces_and_marked_continued():
    wrapped = book.wrap_code("    x = compute(alpha, beta, gamma, delta, epsilon, zeta, eta, theta)\nshort", columns=40)
    lines = wrapped.splitlines()
    assert all(len(line) <= 40 for line in lines) and lines[-1] == "short" and len(lines) > 2
    assert lines[1].startswith("    ↪ ")
    assert " ".join(line.replace("    ↪ ", "").strip() for line in lines[:-1]) == "x = compute(alpha, beta, gamma, delta, epsilon, zeta, eta, theta)"
    long_token = book.wrap_code("    x = " + "a" * 100, columns=40)  # never cut inside a token: the block widens (and is set smaller)
    assert "a" * 100 in long_token and book.code_scale("    x = " + "a" * 100, columns=40) < 1


def test_write_in_space_follows_the_model_answer(sample, tmp_path):
    items = appendix.practice_exam(context(sample, tmp_path).view, drills=True)  # fill-ins (drills) and essays
    lines = {i.question.id: book.answer_lines(i.question.parts[0]) for i in items if i.question.type == "short_answer"}
    assert min(lines.values()) == 1 and max(lines.values()) > 1
