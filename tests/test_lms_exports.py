"""What the four LMS exports share: same bytes for the same sources, every question type either held or
named in a warning (tests/test_architecture.py checks that they read only the view), and the text rules
(GIFT escapes, link allow list)."""

from __future__ import annotations

import contextlib
import io
import json
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest

from pipeline.cli import main
from pipeline.render.lms.text import block_html, gift_escape
from pipeline.shapes import registry
from pipeline.shapes.parts import SHAPE_NAMES
from tests.conftest import TODAY
from tests.kit.lms import LMS_ONLY, build_fixture, parse_gift
from tests.kit.moodle import importer_problems

FORMATS = {"moodle": "moodle.xml", "gift": "questions.gift", "qti21": "qti21.zip", "canvas": "canvas-qti.zip"}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return build_fixture(tmp_path_factory.mktemp("lms"), only=LMS_ONLY)


def test_same_sources_same_bytes(built, tmp_path):
    again = build_fixture(tmp_path, only=LMS_ONLY)
    for name in FORMATS.values():
        assert (again.out / name).read_bytes() == (built.out / name).read_bytes(), name


def test_zip_entries_are_sorted_and_stamped_with_the_source_date(built):
    for name in ("qti21.zip", "canvas-qti.zip"):
        with zipfile.ZipFile(built.out / name) as archive:
            infos = archive.infolist()
        assert [i.filename for i in infos] == sorted(i.filename for i in infos)
        assert {i.date_time for i in infos} == {built.view.source_date.timetuple()[:6]}


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_shape_is_exported_or_named_in_a_warning(built, fmt):
    """What a format cannot hold is derived from its writers: each question of a shape without one is
    named in a build warning, and every other question is in the export."""
    writers = registry.writers(fmt)  # the shapes' own declarations (pipeline/shapes/registry.py)
    assert set(writers) <= set(SHAPE_NAMES) and writers
    seen = set()
    for q in built.view.questions:
        warned = f"warning: demo: {fmt}: question {q.id} ({q.type}) skipped: " in built.stderr
        assert warned == any(s not in writers for s in q.shapes), (fmt, q.id)
        seen.update(q.shapes)
    assert seen == {"choices", "text", "pairs", "sequence", "numeric"}  # the fixture asks in every shape


def test_gift_escapes_every_special_character_and_line_breaks():
    assert gift_escape("a~b=c#d{e}f:g\\h\ni") == "a\\~b\\=c\\#d\\{e\\}f\\:g\\\\h\\ni"


def test_links_keep_only_http_https_and_mailto():
    out = block_html("[a](https://x.org) [b](mailto:me@x.org) [c](ftp://x.org) [d](/course/1) [e](javascript:alert(1))")
    assert '<a href="https://x.org">a</a>' in out and '<a href="mailto:me@x.org">b</a>' in out
    assert out.count("<a ") == 2 and "[d](/course/1)" in out


def test_code_blocks_are_kept(built):
    essay = next(q for q in built.view.questions if q.id == "2.1-essay")
    assert "<pre><code class=\"language-python\">x = {'a': 1}  # a dict\n</code></pre>" in block_html(essay.stem_md)


def test_a_build_that_leaves_the_exports_alone_still_warns(built, tmp_path):
    """The warnings are kept with the build state: an unchanged gift file still lacks the ordering question."""
    sources = built.out.parent.parent / "sources"
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        assert main(["build", "--sources", str(sources), "--out", str(built.out.parent), "--today", TODAY, "--only", LMS_ONLY]) == 0
    assert "unchanged" in err.getvalue() and "wrote" not in err.getvalue()
    assert "warning: demo: gift: question 2.1-ordering (ordering) skipped" in err.getvalue()


def _held(out: Path) -> dict[str, list[str]]:
    """The question ids each export of one exam holds, read from the files."""
    with zipfile.ZipFile(out / "qti21.zip") as archive:
        qti = [n.removeprefix("items/q_").removesuffix(".xml") for n in archive.namelist() if n.startswith("items/")]
    with zipfile.ZipFile(out / "canvas-qti.zip") as archive:
        quiz = next(n for n in archive.namelist() if n.endswith(".xml") and "/" in n and not n.endswith("assessment_meta.xml"))
        canvas = [i.get("ident").removeprefix("q_") for i in ET.fromstring(archive.read(quiz)).iter("{http://www.imsglobal.org/xsd/ims_qtiasiv1p2}item")]
    code, parsed = parse_gift(out / "questions.gift")
    assert code == 0, f"gift-pegjs: {parsed}"
    return {"moodle": [q.findtext("idnumber") for q in ET.parse(out / "moodle.xml").getroot() if q.get("type") != "category"],
            "gift": [q["title"] for q in json.loads(parsed) if q["type"] != "Category"], "qti21": sorted(qti), "canvas": canvas}


def test_the_sample_s_exports_hold_every_bank_question_of_their_shapes(full_copy, tmp_path):
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        assert main(["build", "--sources", str(full_copy), "--out", str(tmp_path / "out"), "--today", TODAY, "--only", LMS_ONLY]) == 0, err.getvalue()
    for out in [p.parent for p in (tmp_path / "out").glob("*/bank.json")]:
        bank = json.loads((out / "bank.json").read_text(encoding="utf-8"))["questions"]
        for fmt, ids in _held(out).items():
            shapes = registry.writers(fmt)
            wanted = [q["id"] for q in bank if all(p["shape"] in shapes for p in q["parts"])]
            assert ids == (sorted(wanted) if fmt == "qti21" else wanted), fmt
            skipped = [q["id"] for q in bank if q["id"] not in wanted]
            assert all(f"{out.name}: {fmt}: question {qid} " in err.getvalue() for qid in skipped)
        assert importer_problems(ET.parse(out / "moodle.xml").getroot()) == []
