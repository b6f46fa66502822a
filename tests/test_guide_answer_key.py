"""The guide's answer key is whole and points at the right page; code is never cut inside a token; no
page holds only the tail of a box. Read back from the real PDF (weasyprint, pypdf) and weasyprint's layout.

The fixture exam is the complete one (tests/fixtures/full); `long_code` adds an example whose lines are
longer than the text block and one token longer than a line.
"""

from __future__ import annotations

import re

import pytest
import weasyprint

from pipeline.render.guide import appendix
from pipeline.render.guide.fetcher import TemplateOnlyFetcher
from pipeline.render.guide.html import GUIDE_TEMPLATES
from pipeline.render.guide.pdf import guide_html
from pipeline.text import cloze
from pipeline.text.plaintext import to_plain
from tests.kit.pdf import context, load_sample, normalized, render_into

LONG_TOKEN = "https://example.com/" + "x" * 110  # longer than a code line: the block is set smaller, the token stays whole
LONG_CODE = f"""
examples:
  - id: 1.1-long-lines
    title: Lines longer than the block
    code: |
      result = compute_the_weighted_average(weights=model.named_parameters(), scale=0.5, clip=True, names=("weight_orig", "weight_mask"))
      print(f"sparsity {{sparsity:.1f}}% of {{total}} weights, {{kept}} kept, {{dropped}} dropped, and a last word here: 50.0%")
      url = "{LONG_TOKEN}"
    output: |-
      sparsity 50.0% of 64 weights, 32 kept, 32 dropped, and a last word here to push the line past the block: 50.0%
"""


@pytest.fixture(scope="module")
def sample():
    return load_sample()


@pytest.fixture(scope="module")
def pdf(sample, tmp_path_factory):
    return render_into(sample, tmp_path_factory.mktemp("key"))


def _norm(text: str) -> str:
    return re.sub(r"/\s", "/", normalized(text))  # a line may break after a slash ("HTTP/ REST")


def _answer_key_text(reader) -> str:
    pages = [_norm(p.extract_text()) for p in reader.pages]
    start = next(i for i, t in enumerate(pages) if t.startswith("Answer key"))
    end = next(i for i, t in enumerate(pages) if t.startswith("Glossary"))
    return " ".join(re.sub(r"^NCA-GENM .*?(?=\d+\. )", "", t) for t in pages[start:end])


def test_the_answer_key_is_whole(pdf, sample, tmp_path):
    key = _answer_key_text(pdf)
    assert "…" not in key
    items = appendix.practice_exam(context(sample, tmp_path).view)
    assert len(items) >= 30
    for item in items:
        assert _norm(item.key_line) in key, item.question.id  # the whole explanation
        assert item.key_line == " ".join(to_plain(item.question.explanation_md).split()), item.question.id
        assert item.key_line.endswith((".", "?", "!", ")")), item.key_line
        if item.question.type == "short_answer" and not item.question.parts[0].accepted:
            assert _norm(to_plain(item.question.answer_md)) in key, item.question.id  # the model answer, whole


def test_review_page_is_the_page_of_the_cited_key_point(pdf, sample, tmp_path):
    view = context(sample, tmp_path).view
    items = appendix.practice_exam(view)
    destinations = pdf.named_destinations
    expected = [pdf.get_destination_page_number(destinations[item.review_anchor]) + 1 for item in items]
    printed = [int(p) for p in re.findall(r"review p\. ?(\d+)", _answer_key_text(pdf))]
    assert printed == expected
    points = {p.id: p for o in view.objectives for p in o.key_points}
    cited = [item for item in items if item.question.key_points]
    assert len(cited) >= 20 and all(item.review_anchor == f"kp-{item.question.key_points[0]}" for item in cited)
    for item, page in zip(items, printed, strict=True):
        if item.question.key_points:  # the key point's words are on that page
            opening = " ".join(to_plain(cloze.strip(points[item.question.key_points[0]].text_md)).split()[:4])
            assert opening in normalized(pdf.pages[page - 1].extract_text()), (item.question.id, page, opening)
    objective_pages = {o.anchor: pdf.get_destination_page_number(destinations[o.anchor]) + 1 for o in view.objectives}
    assert any(page != objective_pages[item.objective.anchor] for item, page in zip(items, printed, strict=True))  # not all the objective's first page


def _with_long_code(make_sources):
    sources = make_sources("valid")
    path = sources / "demo" / "valid.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("questions:", LONG_CODE.lstrip() + "questions:", 1), encoding="utf-8")
    return load_sample(sources)


def test_no_code_token_is_split_across_lines(make_sources, tmp_path):
    content = _with_long_code(make_sources)
    reader = render_into(content, tmp_path / "out")
    lines = [line.replace("↪", "").strip() for page in reader.pages for line in page.extract_text().splitlines()]
    words = {w for line in lines for w in line.split()}
    example = content.objectives[0].examples[0]
    tokens = (example.code + "\n" + example.output).split()
    assert len(tokens) > 30 and any(len(line) > 84 for line in example.code.splitlines())  # lines the block must wrap
    missing = [t for t in tokens if t not in words]
    assert missing == []  # every token printed whole on one line, never "weigh↪ts"
    html = guide_html(context(content, tmp_path))
    assert 'style="font-size: ' in html  # the block with the long token is set smaller rather than cut


def _box_pages(html: str, classes: tuple[str, ...]) -> dict[int, list[int]]:
    """Per box (by document order) the pages its layout boxes sit on, from weasyprint's own layout."""
    document = weasyprint.HTML(string=html, base_url=GUIDE_TEMPLATES.as_uri() + "/", url_fetcher=TemplateOnlyFetcher()).render()
    found: dict[int, list[int]] = {}
    order: dict[int, int] = {}
    for number, page in enumerate(document.pages, start=1):
        for box in page._page_box.descendants():
            element = getattr(box, "element", None)
            if element is not None and set((element.get("class") or "").split()) & set(classes):
                key = order.setdefault(id(element), len(order))
                if number not in found.setdefault(key, []):
                    found[key].append(number)
    return found


def test_no_page_holds_only_the_tail_of_a_box(sample, tmp_path):
    html = guide_html(context(sample, tmp_path))
    boxes = _box_pages(html, ("essentials", "check-yourself", "callout", "example"))
    assert len(boxes) >= 20
    assert [pages for pages in boxes.values() if len(pages) > 1] == []  # each box on one page: none leaves its tail alone
