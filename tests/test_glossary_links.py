"""The guide's glossary and the site's glossary send each term to the key point that explains it: the first key
point, in exam order, that mentions the term (by name, plural, acronym or `accept:` form, as a whole word),
else the term's entry in its objective's key terms.

A fixture exam of two sections, built for real: the guide read back with pypdf (the glossary's link
annotations, their named destinations and the pages those land on), the site read with BeautifulSoup (each
glossary link's page and id, and the element there).
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from pypdf import PdfReader

from pipeline.cli import main
from tests.conftest import FIXTURES, TODAY, write_found_lock
from tests.kit.pdf import normalized

# 1.1 defines the terms; its second point is the first to mention "sprocket wheels" (a plural); 2.1, in the
# next section, mentions the torque converter by its acronym only, the idler by its `accept:` form only,
# sprocket wheels again (too late to count), and "flywheeling", which is not the term Flywheel: no point
# mentions Flywheel as a whole word, so it keeps its key-terms box.
GEARS = """\
id: "1.1"
title: Gears
summary: How gears turn.
reviewed: 2026-11-01
key_points:
  - id: 1.1-teeth
    text: A gear's teeth mesh with a chain and turn together with it.
    citations: [{url: "https://example.com/gears", title: Gears, quote: A gear's teeth mesh with a chain.}]
  - id: 1.1-sprockets
    text: Sprocket wheels carry the chain around the frame, one at each end of its loop.
    citations: [{url: "https://example.com/gears", title: Gears, quote: Sprocket wheels carry the chain.}]
terms:
  - {term: Sprocket wheel, definition: A toothed wheel that carries a chain.}
  - {term: Torque converter, definition: "A fluid coupling (TC) that multiplies torque at low speed."}
  - {term: Idler, definition: A wheel that only guides a belt., accept: [jockey pulley]}
  - {term: Flywheel, definition: A heavy wheel that stores turning energy.}
"""
DRIVES = """\
id: "2.1"
title: Drives
summary: How drives pass power on.
reviewed: 2026-11-01
key_points:
  - id: 2.1-coupling
    text: An automatic gearbox takes power through a TC, which lets the engine idle while the wheels stand still.
    citations: [{url: "https://example.com/drives", title: Drives, quote: An automatic gearbox takes power through a TC.}]
  - id: 2.1-belts
    text: A jockey pulley keeps a long belt tight, and sprocket wheels do the same for a chain.
    citations: [{url: "https://example.com/drives", title: Drives, quote: A jockey pulley keeps a long belt tight.}]
  - id: 2.1-coasting
    text: Freewheeling and flywheeling both mean the drive turns on without power for a while.
    citations: [{url: "https://example.com/drives", title: Drives, quote: Freewheeling means turning on without power.}]
"""
# term -> the key point expected to explain it (None: its key-terms box), and the words that point says it with
EXPLAINED = {"Flywheel": (None, "Flywheel"), "Idler": ("2.1-belts", "jockey pulley"), "Sprocket wheel": ("1.1-sprockets", "Sprocket wheels"),
             "Torque converter": ("2.1-coupling", "TC")}


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("glossary")
    folder = base / "sources" / "demo"
    folder.mkdir(parents=True)
    (folder / "exam.yaml").write_text((FIXTURES / "exams" / "valid.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "1.1-gears.yaml").write_text(textwrap.dedent(GEARS), encoding="utf-8")
    (folder / "2.1-drives.yaml").write_text(textwrap.dedent(DRIVES), encoding="utf-8")
    write_found_lock(folder)
    assert main(["build", "-q", "--sources", str(base / "sources"), "--out", str(base / "out"), "--today", TODAY, "--only", "guide,site"]) == 0
    return base / "out" / "demo"


def _anchor(term: str) -> str:
    point = EXPLAINED[term][0]
    return f"kp-{point}" if point else "term-" + term.casefold().replace(" ", "-")


def _glossary_pages(reader: PdfReader) -> list[int]:
    return [n for n, page in enumerate(reader.pages) if page.extract_text().startswith("Glossary\n")]


def test_guide_glossary_links_land_on_the_page_of_the_explaining_key_point(built):
    reader = PdfReader(built / "study-guide.pdf")
    destinations = reader.named_destinations
    pages = _glossary_pages(reader)
    assert pages
    linked = set()  # every internal link target of the glossary's pages, read from their annotations
    for n in pages:
        for annotation in reader.pages[n].get("/Annots") or []:
            annotation = annotation.get_object()
            if annotation.get("/Subtype") == "/Link":
                target = annotation.get("/Dest") or (annotation.get("/A") or {}).get("/D")
                if target is not None:
                    linked.add(str(target))
    assert linked == {_anchor(term) for term in EXPLAINED}  # the terms box only for the term no point mentions

    text = normalized(" ".join(reader.pages[n].extract_text() for n in pages))
    said = re.findall(r"(\d\.\d [A-Z][a-z]+), (explained|in its key terms) on page (\d+)", text)
    assert len(said) == len(EXPLAINED)  # one line per term, alphabetical like the glossary
    for term, (heading, how, page) in zip(sorted(EXPLAINED), said, strict=True):
        point, words = EXPLAINED[term]
        target = reader.get_destination_page_number(destinations[_anchor(term)])
        assert int(page) == target + 1, term
        assert how == ("explained" if point else "in its key terms") and heading == ("2.1 Drives" if point and point.startswith("2.1") else "1.1 Gears")
        printed = normalized(reader.pages[target].extract_text())
        assert words in printed, (term, words)  # the page holds the point (or the box) with the term's form
    # the explaining points of the acronym and the synonym sit in section 2, on later pages than the key terms
    terms_page = reader.get_destination_page_number(destinations["term-flywheel"])
    assert reader.get_destination_page_number(destinations["kp-2.1-coupling"]) > terms_page


def test_site_glossary_links_point_at_existing_ids_of_the_explaining_key_points(built):
    site = built / "site"
    soup = BeautifulSoup((site / "glossary.html").read_text(encoding="utf-8"), "html.parser")
    entries = soup.select("dl.glossary div.term")
    assert [e.dt.get_text(strip=True) for e in entries] == sorted(EXPLAINED)
    for entry in entries:
        term = entry.dt.get_text(strip=True)
        point, words = EXPLAINED[term]
        page, _, anchor = entry.select_one("p.meta a")["href"].partition("#")
        target = BeautifulSoup((site / page).read_text(encoding="utf-8"), "html.parser").find(id=anchor)
        assert target is not None, (term, page, anchor)
        if point:
            assert page == f"objective-{point[:3].replace('.', '-')}.html" and "key-point" in target["class"]
            assert words.casefold() in target.get_text().casefold(), term
        else:  # no key point mentions it: the term in its objective's key terms
            assert page == "objective-1-1.html" and "term" in target["class"] and target.dt.get_text(strip=True) == term
