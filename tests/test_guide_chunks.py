"""A study guide printed in chunks (pipeline/render/guide/paged.py) has every page number right.

A 3x copy of the fixture exam is printed with chunks of 40 items (several chunks, a section cut in two),
then read back with pypdf and checked against its own text: each footer, each contents line and each
objectives-map row, each glossary entry's "explained on page N" (its key point's page), each answer key line's "review p. N",
the outline and the links. It is also compared page for page with the same guide printed whole.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from pypdf import PdfReader

from bench.synthetic import make_exam
from pipeline.check.validate import validate
from pipeline.derive import build_view
from pipeline.render import RenderContext
from pipeline.render.guide import chunks
from pipeline.render.guide.context import build_guide
from pipeline.render.guide.pdf import render
from pipeline.settings.reader import exam_inputs
from tests.conftest import FULL, TODAY

LIMIT = 40


@pytest.fixture(scope="module")
def printed(tmp_path_factory):
    """The guide, the reader and its pages' text printed in chunks, the whole guide's pages' text, and whether
    printing it in chunks again gave the same bytes."""
    root = tmp_path_factory.mktemp("chunks")
    content = validate(make_exam(root / "sources", 3, sample=FULL / "nca-genm"), dt.date.fromisoformat(TODAY)).exams[0]
    view = build_view(exam_inputs(content))
    texts = {}
    for name, limit in (("chunked", LIMIT), ("whole", 10**9)):
        (root / name).mkdir()
        ctx = RenderContext(view, root / name)
        render(ctx, limit)
        reader = PdfReader(root / name / "study-guide.pdf")
        texts[name] = (reader, [page.extract_text() for page in reader.pages])
    guide = build_guide(RenderContext(view, root))
    (root / "again").mkdir()
    render(RenderContext(view, root / "again"), LIMIT)
    same = (root / "again" / "study-guide.pdf").read_bytes() == (root / "chunked" / "study-guide.pdf").read_bytes()
    return guide, *texts["chunked"], texts["whole"][1], same, texts["whole"][0]


def _on_page(texts: list[str], number: int, title: str) -> bool:
    return title in texts[number - 1].splitlines()


def test_the_guide_is_printed_in_several_chunks_one_section_cut(printed):
    guide = printed[0]
    body = chunks.body(guide, LIMIT)
    assert len(body) >= 4
    assert any(segment.continued for chunk in body for segment in chunk.segments)  # a section goes on in the next chunk


def test_every_footer_counts_the_whole_guide(printed):
    _, _, texts, *_ = printed
    assert len(texts) > 60
    for number, text in enumerate(texts, start=1):
        assert f"Page {number} of {len(texts)}" in text


def test_contents_and_objectives_map_name_the_pages_their_headings_are_on(printed):
    guide, _, texts, *_ = printed
    front = "\n".join(texts[:4])
    entries = re.findall(r"^(.+?) \.{3,} (\d+)$", front, re.MULTILINE)
    expected = [*(f"Section {s.number}: {s.title}" for s in guide.sections), *(o.heading for o in guide.objectives),
                "Practice exam", "Answer key", "Glossary", "References"]
    assert sorted(title for title, _ in entries) == sorted(expected)
    for title, page in entries:
        assert _on_page(texts, int(page), title), (title, page)
    for objective in guide.objectives:
        row = re.search(rf"^(?:.* )?{re.escape(objective.heading)} (?:\d+% )?(\d+)$", front, re.MULTILINE)
        assert row and _on_page(texts, int(row[1]), objective.heading), objective.heading


def test_glossary_and_answer_key_point_at_the_right_pages(printed):
    guide, reader, texts, *_ = printed
    back = "\n".join(texts)
    explained = [int(n) for n in re.findall(r"(?:explained|in its key terms) on page (\d+)", back)]
    assert len(explained) == len(guide.glossary) > 0
    glossary = next(n for n, text in enumerate(texts, start=1) if text.startswith("Glossary\n"))
    destinations = reader.named_destinations
    for entry, page in zip(guide.glossary, explained, strict=True):  # the page of the key point explaining it (else its key terms)
        assert page < glossary and page == reader.get_destination_page_number(destinations[entry.anchor]) + 1, (entry.term, page)
    reviews = [int(n) for n in re.findall(r"review p\. (\d+)", back)]
    assert len(reviews) == len(guide.practice) > 0
    for item, page in zip(guide.practice, reviews, strict=True):  # the page of the key point it cites (else its objective)
        assert page == reader.get_destination_page_number(destinations[item.review_anchor]) + 1, (item.number, item.review_anchor, page)
    assert sum(item.review_anchor.startswith("kp-") for item in guide.practice) > len(guide.practice) / 2  # most cite a point


def test_outline_and_links_lead_to_their_targets(printed):
    guide, reader, texts, *_ = printed
    outline = []

    def walk(items, depth):
        for item in items:
            if isinstance(item, list):
                walk(item, depth + 1)
            else:
                outline.append((depth, item.title, reader.get_destination_page_number(item) + 1))

    walk(reader.outline, 0)
    levels = {title: depth for depth, title, _ in outline}
    for objective in guide.objectives:
        assert levels[objective.heading] == 1  # nested under its section, across chunks too
    for section in guide.sections:
        assert levels[f"Section {section.number}: {section.title}"] == 0
    for _, title, page in outline:
        if title != "Cover":
            assert _on_page(texts, page, title), (title, page)
    destinations = reader.named_destinations
    links = [a.get_object()["/Dest"] for page in reader.pages for a in page.get("/Annots") or [] if "/Dest" in a.get_object()]
    assert len(links) > 100 and all(str(d) in destinations for d in links)
    toc = [str(a.get_object()["/Dest"]) for a in reader.pages[1].get("/Annots") or [] if "/Dest" in a.get_object()]
    assert f"objective-{guide.objectives[-1].id}" in toc  # the contents link into the last chunks


def _words(text: str) -> str:
    """The page's words: pypdf spaces a code span's neighbours differently once a footer is laid over the page."""
    return re.sub(r" (?=[,.;:)])", "", " ".join(text.split()))


def test_printed_in_chunks_the_guide_reads_as_printed_whole(printed):
    _, _, texts, whole, *_ = printed
    assert [_words(t) for t in texts] == [_words(t) for t in whole]


def test_the_same_sources_print_the_same_bytes(printed):
    assert printed[4]


def _footer_at(page) -> tuple[str, float, float, float]:
    """The footer's text, where it starts (x, y in points) and its size, as pypdf reads the page's content."""
    shown = []

    def seen(text, cm, tm, font, size):
        if text.startswith("Page "):
            x, y = tm[4] * cm[0] + tm[5] * cm[2] + cm[4], tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            shown.append((text.strip(), round(x, 2), round(y, 2), round(size * (tm[0] * cm[0] + tm[1] * cm[2]), 2)))

    page.extract_text(visitor_text=seen)
    assert len(shown) == 1, shown
    return shown[0]


def test_the_footers_written_into_the_pages_stand_where_weasyprint_puts_them(printed):
    """Written into each page's content stream (no layout of their own), the footers have the text, the
    place and the size of the footers weasyprint lays out when it prints the guide whole."""
    _, reader, texts, _, _, whole = printed
    for number in (1, 2, 9, 10, len(texts)):  # one- and two-digit page numbers, the last page
        text, *place = _footer_at(reader.pages[number - 1])
        expected, *where = _footer_at(whole.pages[number - 1])
        assert text == expected and place == pytest.approx(where, abs=0.02)  # a fiftieth of a point
    assert _footer_at(reader.pages[9])[0] == f"Page 10 of {len(texts)}"
