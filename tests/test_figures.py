"""Images written in the sources reach all eight outputs with their files, each output read back with the
reader its other tests use: pypdf for the guide, BeautifulSoup and chromium for the site, the real Anki
backend for the deck, json for the bank, ElementTree and zipfile for Moodle XML, QTI 2.1 and Canvas, the
text of GIFT (which cannot carry a file and leaves the question out, saying so).

The fixture exam is tests/fixtures/figures/: an SVG figure in a key point (captioned), a PNG figure without
a caption, the SVG again in a term's definition, a PNG inside a stem's sentence and an SVG figure under it,
two options that are images (the answer names one by its alt text), a table and formulas beside them, and
"costs $5 and $10 a month" as prose. The PNG is made here (noise, so no output can shrink it to nothing)."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import shutil
import xml.etree.ElementTree as ET
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from anki.collection import Collection
from bs4 import BeautifulSoup
from PIL import Image
from pypdf import PdfReader

from schema.bank import SCHEMA_VERSION
from tests.conftest import FIXTURES, write_found_lock
from tests.kit.anki import import_package
from tests.kit.figures import build, png
from tests.kit.studysite import axe_serious, guarded_context, page_of

QTI = "{http://www.imsglobal.org/xsd/imsqti_v2p1}"
CP = "{http://www.imsglobal.org/xsd/imscp_v1p1}"
CC = "{http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1}"
PROSE = "costs $5 and $10 a month"
FILES = ["figures/bf16.svg", "figures/fp16.svg", "figures/layout.svg", "figures/timeline.png"]


@dataclass
class Built:
    sources: Path
    out: Path  # OUT/demo
    stderr: str
    code: int


def exam(base: Path) -> Path:
    folder = base / "sources" / "demo"
    (folder / "figures").mkdir(parents=True)
    shutil.copy(FIXTURES / "exams" / "valid.yaml", folder / "exam.yaml")
    shutil.copy(FIXTURES / "figures" / "figures.yaml", folder / "figures.yaml")
    for svg in (FIXTURES / "figures" / "figures").glob("*.svg"):
        shutil.copy(svg, folder / "figures" / svg.name)
    png(folder / "figures" / "timeline.png")
    write_found_lock(folder)
    return base / "sources"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    base = tmp_path_factory.mktemp("figures")
    sources = exam(base)
    code, err = build(sources, base / "out")
    assert code == 0, err
    return Built(sources, base / "out" / "demo", err, code)


def source_bytes(built: Built, path: str) -> bytes:
    return (built.sources / "demo" / path).read_bytes()


def site_name(sources: Path, path: str) -> str:
    """The site's copy of the exam's file `path`, named by its content: media/<stem>-<12 hex>.<ending>."""
    stem, ending = path.rsplit(".", 1)
    return f"media/{stem}-{hashlib.sha256((sources / 'demo' / path).read_bytes()).hexdigest()[:12]}.{ending}"


def test_every_figure_is_numbered_per_objective_captioned_and_linkable():
    from pipeline.text.markdown import to_html

    html = to_html('Intro\n\n![A pod](<media:figures/pod.png#figure-6.1-2> "Two containers")\n\nText ![icon](<media:i.png>) here.')
    page = BeautifulSoup(html, "html.parser")
    [figure] = page.find_all("figure")
    assert figure["id"] == "figure-6-1-2" and figure.img["src"] == "media/figures/pod.png" and figure.img["alt"] == "A pod"
    assert figure.figcaption.get_text(" ", strip=True) == "Figure 6.1-2 Two containers"
    inline = [img for img in page.find_all("img") if img.find_parent("figure") is None]
    assert [img["alt"] for img in inline] == ["icon"] and inline[0].find_parent("p") is not None
    assert "<img" not in to_html("![x](figures/never-checked.png)")  # only the loader's media: addresses become images


def test_the_guide_prints_the_figures_with_numbers_captions_and_the_svg_text(built):
    reader = PdfReader(built.out / "study-guide.pdf")
    pages = [" ".join(page.extract_text().split()) for page in reader.pages]
    [at] = [i for i, text in enumerate(pages) if "Figure 1.3-1" in text]
    assert "Figure 1.3-1 Sign, exponent and mantissa bits of FP32 and BF16" in pages[at]
    assert "Figure 1.3-2" in pages[at] and "exponent 8" in pages[at]  # the SVG is drawn as vector text
    rasters = [image for image in reader.pages[at].images]
    assert rasters, "the PNG figure is embedded on its page"
    assert {Image.open(io.BytesIO(r.data)).size for r in rasters} >= {(160, 60)}
    text = " ".join(pages)
    assert "Figure 1.3-4 The two layouts" in text and "FP16 10 bits" in text and "BF16 7 bits" in text
    assert "Kernel Time gemm 4 ms" in text and PROSE in text and "\\frac" not in text and "$2" not in text
    assert "![" not in text and "media:" not in text


def test_the_site_shows_each_image_from_a_file_it_holds(built):
    site = built.out / "site"
    page = BeautifulSoup((site / "objective-1-3.html").read_text(encoding="utf-8"), "html.parser")
    images = page.find_all("img")
    assert len(images) >= 6
    by_name = {site_name(built.sources, f): f for f in FILES}
    for img in images:
        assert img.get("alt") and (site / img["src"]).is_file(), img
        assert (site / img["src"]).read_bytes() == source_bytes(built, by_name[img["src"]])  # named by its content
    figures = page.find_all("figure", class_="figure")
    assert [f["id"] for f in figures if f.get("id")] == ["figure-1-3-1", "figure-1-3-2", "figure-1-3-3", "figure-1-3-4"]
    assert all(f.figcaption and f.figcaption.get_text().startswith("Figure 1.3-") for f in figures)
    assert page.find("table", class_="data").find("th") and page.find("math") is not None and PROSE in page.get_text(" ")
    glossary = BeautifulSoup((site / "glossary.html").read_text(encoding="utf-8"), "html.parser")
    assert [img["src"] for img in glossary.find_all("img")] == [site_name(built.sources, "figures/layout.svg")]
    assert sorted(p.relative_to(site).as_posix() for p in (site / "media").rglob("*") if p.is_file()) == sorted(by_name)
    pages = {p.name: p.read_text(encoding="utf-8") for p in site.rglob("*") if p.suffix in (".html", ".js")}
    showing = sorted(name for name, text in pages.items() if 'src="media/' in text)
    assert {"objective-1-3.html", "glossary.html", "review.html", "mock.html"} <= set(showing)  # the practice tools too
    assert not [name for name in showing for f in FILES if f'src="media/{f}"' in pages[name]]  # never the plain name


def test_the_site_page_with_figures_fits_a_phone_and_is_axe_clean(browser, built):
    site = (built.out / "site").as_uri() + "/"
    for width in (375, 1280):
        with guarded_context(browser, (site,), viewport={"width": width, "height": 900}) as context:
            page = page_of(context)
            page.goto(site + "objective-1-3.html")
            loaded = page.evaluate("() => [...document.images].map(i => [i.complete && i.naturalWidth > 0, i.getBoundingClientRect().right])")
            assert loaded and all(ok for ok, _ in loaded), loaded
            assert page.evaluate("() => document.documentElement.scrollWidth") <= width
            assert all(right <= width for _, right in loaded)
            assert axe_serious(page, preload=False) == [] and page.errors == [] and context.offsite == []


def test_the_deck_in_real_anki_holds_the_media_its_fields_show(built, tmp_path):
    col = Collection(str(tmp_path / "learner.anki2"))
    try:
        import_package(col, built.out / "deck.apkg")
        media = Path(col.media.dir())
        names = sorted(p.name for p in media.iterdir() if p.is_file())
        assert len(names) == 4 and all(n.startswith("figures--") for n in names), names
        question = col.get_note(col.find_notes('"Ref:1.3-q1"')[0])
        shown = BeautifulSoup(question["Stem"] + question["Options"], "html.parser").find_all("img")
        assert len(shown) == 4
        for img in shown:
            assert img["alt"] and (media / img["src"]).is_file(), img["src"]
        by_hash = {hashlib.sha256(source_bytes(built, f)).hexdigest()[:12]: f for f in FILES}
        for name in names:
            assert (media / name).read_bytes() == source_bytes(built, by_hash[name.rsplit(".", 1)[0][-12:]])
    finally:
        col.close()


def test_the_bank_lists_each_file_with_a_hash_that_matches_its_copy(built):
    bank = json.loads((built.out / "bank.json").read_text(encoding="utf-8"))
    assert bank["schema_version"] == SCHEMA_VERSION  # media came with 2.4; later bumps keep them
    assert [m["path"] for m in bank["media"]] == [f"media/{f}" for f in FILES]
    for entry in bank["media"]:
        data = (built.out / entry["path"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"] == hashlib.sha256(source_bytes(built, entry["path"][6:])).hexdigest()
        assert entry["alt"] and entry["size"] == len(data)
    png_entry = next(m for m in bank["media"] if m["path"].endswith(".png"))
    assert (png_entry["media_type"], png_entry["width"], png_entry["height"]) == ("image/png", 160, 60)
    q = next(q for q in bank["questions"] if q["id"] == "1.3-q1")
    assert "media:figures/layout.svg" in q["stem"] and 'src="media/figures/layout.svg"' in q["stem_html"]
    correct = [o for o in q["parts"][0]["options"] if o["correct"]]
    assert [o["text_html"] for o in correct] == ['<img src="media/figures/bf16.svg" alt="BF16 layout: 1 sign, 8 exponent, 7 mantissa bits">']


def test_moodle_embeds_each_file_beside_the_text_that_shows_it(built):
    root = ET.parse(built.out / "moodle.xml").getroot()
    [q] = [q for q in root.iter("question") if (q.findtext("idnumber") or "") == "1.3-q1"]
    checked = 0
    for holder in q.iter():
        text = holder.findtext("text") or ""
        refs = sorted(set(BeautifulSoup(text, "html.parser").find_all("img")), key=str) if "@@PLUGINFILE@@" in text else []
        files = {f.get("name"): base64.b64decode(f.text or "") for f in holder.findall("file")}
        for img in refs:
            name = img["src"].removeprefix("@@PLUGINFILE@@/")
            assert files[name] == source_bytes(built, name.replace("--", "/")), name
            assert holder.find(f"file[@name='{name}']").get("encoding") == "base64"
            checked += 1
    assert checked == 4  # two in the question text, one per image option


def test_qti_and_canvas_packages_hold_and_declare_the_files(built):
    with zipfile.ZipFile(built.out / "qti21.zip") as archive:
        item = ET.fromstring(archive.read("items/q_1.3-q1.xml"))
        manifest = ET.fromstring(archive.read("imsmanifest.xml"))
        srcs = [img.get("src") for img in item.iter(f"{QTI}img")]
        assert len(srcs) == 4 and all(src.startswith("../media/") for src in srcs)
        declared = [f.get("href") for r in manifest.iter(f"{CP}resource") if r.get("href") == "items/q_1.3-q1.xml" for f in r.iter(f"{CP}file")]
        for src in srcs:
            assert src[3:] in declared and archive.read(src[3:]) == source_bytes(built, src[9:])
        assert all(img.get("alt") for img in item.iter(f"{QTI}img"))
    with zipfile.ZipFile(built.out / "canvas-qti.zip") as archive:
        quiz = archive.read("quiz_demo/quiz_demo.xml").decode()
        manifest = ET.fromstring(archive.read("imsmanifest.xml"))
        hrefs = {f.get("href") for r in manifest.iter(f"{CC}resource") if r.get("type") == "webcontent" for f in r.iter(f"{CC}file")}
        assert hrefs == {f"web_resources/media/{f}" for f in FILES}
        for name in hrefs:
            assert f"$IMS-CC-FILEBASE$/{name.removeprefix('web_resources/')}" in quiz
            assert archive.read(name) == source_bytes(built, name.removeprefix("web_resources/media/"))


def test_gift_leaves_out_a_question_that_needs_a_file_and_says_so(built):
    gift = (built.out / "questions.gift").read_text(encoding="utf-8")
    assert "@@PLUGINFILE@@" not in gift and "1.3-q1" not in gift and "<img" not in gift
    assert "gift: question 1.3-q1 (single) skipped: it shows an image and GIFT cannot carry a file" in built.stderr


@pytest.mark.slow  # two whole builds and an image edit: the guide's PDF three times
def test_two_builds_give_the_same_bytes_and_an_image_edit_rebuilds_what_shows_it(built, tmp_path):
    sources = tmp_path / "sources"
    shutil.copytree(built.sources, sources)
    code, err = build(sources, tmp_path / "out")
    assert code == 0, err
    again = tmp_path / "out" / "demo"
    for name in ("bank.json", "moodle.xml", "qti21.zip", "canvas-qti.zip", "study-guide.pdf", "deck.apkg", "site/objective-1-3.html"):
        assert (again / name).read_bytes() == (built.out / name).read_bytes(), name
    figures = sources / "demo" / "figures.yaml"
    figures.write_text(figures.read_text(encoding="utf-8") + "# a comment\n", encoding="utf-8")
    code, err = build(sources, tmp_path / "out", "-v")
    assert code == 0 and "0 written, 8 unchanged" in err, err
    png(sources / "demo" / "figures" / "timeline.png", seed=2)
    code, err = build(sources, tmp_path / "out", "-v")
    assert code == 0 and "8 written, 0 unchanged" in err, err  # every output shows the PNG (GIFT: by leaving it out)
    site = tmp_path / "out" / "demo" / "site"
    renamed = site / site_name(sources, "figures/timeline.png")  # a new name for new bytes: no cached copy shows
    assert renamed.read_bytes() == (sources / "demo" / "figures" / "timeline.png").read_bytes()
    assert site_name(sources, "figures/timeline.png") in (site / "objective-1-3.html").read_text(encoding="utf-8")
    assert not (site / site_name(built.sources, "figures/timeline.png")).exists()  # the old copy, which the build wrote, is gone
    assert (site / site_name(sources, "figures/bf16.svg")).read_bytes() == (built.out / "site" / site_name(built.sources, "figures/bf16.svg")).read_bytes()


def test_a_changed_image_updates_the_notes_that_show_it_in_place(built, tmp_path):
    sources = tmp_path / "sources"
    shutil.copytree(built.sources, sources)
    code, err = build(sources, tmp_path / "out", "--only", "deck")  # the deck: all this test reads
    assert code == 0, err
    col = Collection(str(tmp_path / "learner.anki2"))
    try:
        import_package(col, tmp_path / "out" / "demo" / "deck.apkg")
        notes = sorted(col.find_notes(""))
        first = col.get_note(col.find_notes('"Ref:1.3-q1"')[0])["Stem"]
        png(sources / "demo" / "figures" / "timeline.png", seed=3)
        code, err = build(sources, tmp_path / "out", "--only", "deck")
        assert code == 0, err
        import_package(col, tmp_path / "out" / "demo" / "deck.apkg")
        assert sorted(col.find_notes("")) == notes  # the same notes, updated in place
        stem = col.get_note(col.find_notes('"Ref:1.3-q1"')[0])["Stem"]
        [new] = [img["src"] for img in BeautifulSoup(stem, "html.parser").find_all("img") if "timeline" in img["src"]]
        assert stem != first and new not in first
        assert (Path(col.media.dir()) / new).read_bytes() == (sources / "demo" / "figures" / "timeline.png").read_bytes()
    finally:
        col.close()
