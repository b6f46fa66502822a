"""The PDF study guide: its HTML against a golden file, and the real PDF read back with pypdf.

Every PDF here is rendered by weasyprint for real; nothing is mocked. The sample is rendered once per
module (a few seconds) and shared by the read-back tests.
"""

from __future__ import annotations

import datetime as dt
import io
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from pipeline.citations.lock import CitationLock, LockEntry
from pipeline.render import RENDERERS
from pipeline.render.guide.context import build_guide
from pipeline.render.guide.fetcher import TEMPLATES, RefusedFetch, TemplateOnlyFetcher
from pipeline.render.guide.pdf import guide_html, html_to_pdf, render
from tests.conftest import TODAY
from tests.kit.golden import assert_golden
from tests.kit.pdf import context, load_sample, normalized, outline_entry, outline_titles, pdf_text, render_into
from tests.kit.sample import OBJECTIVES, copy_of, set_value

HOSTILE = '<script>alert(1)</script> <img src="file:///etc/hostname">'


def link_uris(reader: PdfReader) -> set[str]:
    uris = set()
    for page in reader.pages:
        for annot in page.get("/Annots") or []:
            action = annot.get_object().get("/A")
            if action and "/URI" in action:
                uris.add(str(action["/URI"]))
    return uris


def images_and_files(reader: PdfReader) -> list[str]:
    """Every image XObject and embedded file in the PDF: there should be none."""
    found = []
    for number, page in enumerate(reader.pages):
        xobjects = (page.get("/Resources") or {}).get("/XObject") or {}
        found += [f"page {number}: {name}" for name, obj in xobjects.items() if obj.get_object().get("/Subtype") == "/Image"]
    names = reader.trailer["/Root"].get("/Names") or {}
    return found + (["embedded files"] if "/EmbeddedFiles" in names else [])


@pytest.fixture(scope="module")
def sample():
    return load_sample()


@pytest.fixture(scope="module")
def guide_pdf(sample, tmp_path_factory) -> PdfReader:
    return render_into(sample, tmp_path_factory.mktemp("guide"))


def test_pdf_is_a_registered_renderer():
    from pipeline.render import load

    assert load(RENDERERS["guide"]) is render


def test_guide_html_matches_golden(sample, tmp_path):
    assert_golden("study-guide.html", guide_html(context(sample, tmp_path)))


def test_every_objective_title_quote_and_term_is_in_the_pdf_text(guide_pdf, sample):
    text = pdf_text(guide_pdf)
    expected = [f"{o.id} {o.title}" for o in sample.objectives]
    expected += [c.quote for kp in sample.key_points().values() for c in kp.citations]
    expected += [t.term for _, t in sample.terms()]
    missing = [item for item in expected if normalized(item) not in text]
    assert not missing, missing


def test_outline_has_every_section_objective_and_appendix(guide_pdf, sample):
    titles = outline_titles(guide_pdf.outline)
    assert sample.objectives  # each is looked for below
    for objective in sample.objectives:
        assert f"{objective.id} {objective.title}" in titles
    for title in ("Section 6: Performance Optimization", "Contents", "Answer key", "Glossary", "References"):
        assert title in titles


def test_every_cited_url_and_lab_is_a_link(guide_pdf, sample):
    cited = {c.url for kp in sample.key_points().values() for c in kp.citations}
    labs = {lab.url for o in sample.objectives for lab in o.labs}
    assert cited | labs | {sample.exam.exam_page} <= link_uris(guide_pdf)


def test_answer_key_gives_every_answer_with_the_page_to_review(guide_pdf, sample, tmp_path):
    start = guide_pdf.get_destination_page_number(outline_entry(guide_pdf, "Answer key"))
    text = pdf_text(guide_pdf, first_page=start).split("Glossary")[0]
    assert text.startswith("Answer key For each question")  # the heading opens the page (pypdf reads margin boxes last)
    destinations = guide_pdf.named_destinations
    items = build_guide(context(sample, tmp_path)).practice
    # entries in order: "N. answer — why review p. P" (an answer may itself hold "bfloat16. In")
    entries = re.findall(r"(\d+)\. (.*?) review p\. (\d+)", text.split(" For each question", 1)[1].split("). ", 1)[1])
    assert [int(n) for n, _, _ in entries] == [item.number for item in items]
    for item, (_, body, page) in zip(items, entries, strict=True):  # the page of the key point it cites
        assert int(page) == guide_pdf.get_destination_page_number(destinations[item.review_anchor]) + 1, item.question.id
        assert normalized(item.answer_text) in body, item.question.id


def test_practice_pages_show_no_answers(guide_pdf, sample):
    start = guide_pdf.get_destination_page_number(outline_entry(guide_pdf, "6.1 Efficiency versus accuracy"))
    end = guide_pdf.get_destination_page_number(outline_entry(guide_pdf, "Answer key"))
    body = normalized(" ".join(page.extract_text() for page in guide_pdf.pages[start:end]))
    explanations = [q.explanation for _, q in sample.questions() if "`" not in q.explanation]
    assert not [e for e in explanations if normalized(e) in body]


def test_metadata_dates_fonts_and_paper(guide_pdf, sample):
    info = guide_pdf.metadata
    assert info.title == f"{sample.exam.code} study guide: {sample.exam.title}"
    assert info.author == "exam-prep pipeline"
    assert info["/CreationDate"].startswith("D:20261107000000")  # the latest review date, not the clock
    assert guide_pdf.trailer["/Root"]["/Lang"] == "en"
    assert [round(float(v)) for v in guide_pdf.pages[0].mediabox[2:]] == [595, 842]  # A4
    for page in guide_pdf.pages[:3]:
        for font in page["/Resources"]["/Font"].values():
            descriptor = font.get_object()["/DescendantFonts"][0].get_object()["/FontDescriptor"]
            assert "/FontFile2" in descriptor, font.get_object()["/BaseFont"]  # embedded, not referenced


def test_source_date_epoch_pins_the_pdf_bytes(sample, tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1798156800")  # 2026-12-25
    reader = render_into(sample, tmp_path / "a")
    render_into(sample, tmp_path / "b")
    assert (tmp_path / "a" / "study-guide.pdf").read_bytes() == (tmp_path / "b" / "study-guide.pdf").read_bytes()
    assert reader.metadata["/CreationDate"].startswith("D:20261225000000")


def test_build_paper_letter(run_cli, full_copy, tmp_path):
    result = run_cli("build", "--sources", str(full_copy), "--today", TODAY, "--out", str(tmp_path / "out"), "--paper", "letter")
    assert result.code == 0, result.err
    reader = PdfReader(tmp_path / "out" / "nca-genm" / "study-guide.pdf")
    assert {tuple(round(float(v)) for v in page.mediabox[2:]) for page in reader.pages} == {(612, 792)}


def test_markup_in_a_key_point_prints_as_text_and_embeds_nothing(full_copy, tmp_path):
    file = copy_of(full_copy, OBJECTIVES[0])
    set_value(file, ("key_points", 0, "text"), "'" + HOSTILE + "'")
    content = load_sample(full_copy)
    html = guide_html(context(content, tmp_path))
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=&quot;file:///etc/hostname&quot;&gt;" in html
    assert "<script" not in html and "<img" not in html
    reader = render_into(content, tmp_path)
    assert normalized(HOSTILE) in pdf_text(reader)
    assert images_and_files(reader) == []


def test_weasyprint_loads_nothing_outside_templates_even_from_raw_html(caplog):
    hostile = (
        '<html><head><link rel="stylesheet" href="http://127.0.0.1:9/x.css"></head><body><p>x</p>'
        '<img src="file:///etc/hostname"><img src="../../pyproject.toml">'
        '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw=="></body></html>'
    )
    reader = PdfReader(io.BytesIO(html_to_pdf(hostile)))
    assert images_and_files(reader) == []
    refused = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
    assert len(refused) == 4, refused


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/hostname",
        (TEMPLATES / "guide" / ".." / ".." / "pyproject.toml").as_uri(),
        "http://127.0.0.1:9/guide.css",
        "https://example.com/guide.css",
        "data:text/css,body{}",
        "file://otherhost" + str(TEMPLATES / "guide" / "guide.css"),
    ],
)
def test_fetcher_refuses_everything_but_template_files(url):
    with pytest.raises(RefusedFetch):
        TemplateOnlyFetcher().fetch(url)


def test_fetcher_serves_the_stylesheet():
    response = TemplateOnlyFetcher().fetch((TEMPLATES / "guide" / "guide.css").as_uri())
    assert response.content_type == "text/css"
    assert b"@page" in response.read()


def test_lock_status_shows_in_callouts_and_references(sample, tmp_path):
    citation = sample.objectives[0].key_points[0].citations[0]
    entry = LockEntry(citation.url, citation.quote, "found", dt.date(2026, 11, 20))
    lock = CitationLock(Path("lock.json"), {(citation.url, citation.quote): entry})
    guide = build_guide(context(sample, tmp_path, lock=lock))
    quote = guide.sections[0].objectives[0].key_points[0].citations[0]
    assert quote.status_text == "found on the page, 2026-11-20"
    first = guide.references[0]
    assert (first.ref.url, first.last_checked) == (citation.url, dt.date(2026, 11, 20))
    assert dict(first.statuses) == {"found on the page": 1, "not yet checked": first.quotes - 1}


def test_each_quote_carries_a_mark_and_the_status_legend_is_printed_once(sample, tmp_path, guide_pdf):
    html = guide_html(context(sample, tmp_path))
    quotes = sum(len(kp.citations) for kp in sample.key_points().values())
    assert html.count('<span class="mark mark-unchecked" title="not yet checked">○</span>') == quotes
    assert html.count('class="legend"') == 1
    before_references = pdf_text(guide_pdf).split("References Every page")[0]
    assert before_references.count("not yet checked") == 1  # the legend's line, not a note at every quote


def test_publisher_names_the_callout(sample, tmp_path):
    guide = build_guide(context(sample, tmp_path))
    speakers = {c.speaker for o in guide.objectives for kp in o.key_points for c in kp.citations}
    assert speakers == {"NVIDIA", "PyTorch"}


def test_stale_reviews_are_marked(sample, tmp_path):
    later = dt.datetime(2027, 6, 1, tzinfo=dt.UTC)  # 206 days after the reviews, past the 180-day policy
    guide = build_guide(context(sample, tmp_path, source_date=later))
    assert all(r.stale for r in guide.reviews) and guide.stale_count == 5
    html = guide_html(context(sample, tmp_path, source_date=later))
    assert html.count('<tr class="stale">') == 5
    assert html.count('<strong class="stale">due for review</strong>') == 4


def test_glossary_is_alphabetical_with_its_objective(sample, tmp_path):
    glossary = build_guide(context(sample, tmp_path)).glossary
    assert [e.term for e in glossary] == sorted((t.term for _, t in sample.terms()), key=str.casefold)
    assert next(e for e in glossary if e.term == "Hydra").objective.id == "6.2"


def test_answer_key_letters_follow_the_display_order(sample, tmp_path):
    guide = build_guide(context(sample, tmp_path))
    items = {item.question.id: item for item in guide.practice}
    q1 = items["6.1-q1"].question
    [right] = q1.parts[0].correct
    assert right.text_md == "8" and items["6.1-q1"].answer_text == right.letter
    assert items["6.1-q8"].answer_text.count(",") == 2  # three correct options
    assert items["6.1-q2"].answer_text == "False"
    html = guide_html(context(sample, tmp_path))
    assert f'<strong class="key-answer">{right.letter}</strong>' in html.split('id="answer-6.1-q1"')[1].split("</li>")[0]
