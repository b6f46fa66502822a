"""The study guide rendered for real (weasyprint) and read back with pypdf: the sample loaded, a render context,
the PDF's text as compared (whitespace and hyphenation folded) and its outline."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from pathlib import Path

from pypdf import PdfReader

from pipeline.check.validate import validate
from pipeline.citations.lock import CitationLock
from pipeline.derive import build_view
from pipeline.render import RenderContext
from pipeline.render.guide.pdf import render
from pipeline.settings.reader import exam_inputs
from tests.conftest import FULL, TODAY


def load_sample(sources: Path = FULL):
    return validate(sources, dt.date.fromisoformat(TODAY)).exams[0]


def context(content, out_dir: Path, *, lock: CitationLock | None = None, source_date: dt.datetime | None = None, **options) -> RenderContext:
    view = build_view(dataclasses.replace(exam_inputs(content), citations=lock) if lock else exam_inputs(content), when=source_date)
    return RenderContext(view, out_dir, options=options)


def render_into(content, folder: Path, **changes) -> PdfReader:
    folder.mkdir(parents=True, exist_ok=True)
    [path] = render(context(content, folder, **changes))
    assert path == folder / "study-guide.pdf"
    return PdfReader(path)


def normalized(text: str) -> str:
    """Text as compared: one space for any run of whitespace, none after a hyphen (a line may break there)."""
    text = re.sub(r"\s+", " ", text.replace("\u00ad", ""))
    return re.sub(r"-\s", "-", text).strip()


def pdf_text(reader: PdfReader, first_page: int = 0) -> str:
    return normalized(" ".join(page.extract_text() for page in reader.pages[first_page:]))


def outline_titles(outline) -> list[str]:
    titles = []
    for item in outline:
        titles.extend(outline_titles(item) if isinstance(item, list) else [item.title])
    return titles


def outline_entry(reader: PdfReader, title: str):
    def walk(items):
        for item in items:
            yield from walk(item) if isinstance(item, list) else [item]

    return next(item for item in walk(reader.outline) if item.title == title)
