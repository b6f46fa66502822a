"""The blast radius: break one citation of a fixture exam and the report names every key point,
question (authored and generated), deck note, guide place and site page that leans on it. The deck
notes are checked against the built deck.apkg read with sqlite3, the guide places against the PDF's
named destinations read with pypdf: independent of the code under test."""

from __future__ import annotations

import json
import shutil
import sqlite3
import zipfile

import pytest
from pypdf import PdfReader

from tests.conftest import FIXTURES, TODAY
from tests.kit.fakearchive import allow_loopback
from tests.kit.pageserver import PageServer, Reply

LIVE = "<html><body><p>Things are made of stuff. Stuff is made of atoms.</p></body></html>"
ONE = """id: "1.1"
title: Things
summary: Things and stuff.
reviewed: 2026-11-01
key_points:
  - id: 1.1-broken
    text: "Stuff is made of {{{{c1::atoms}}}} and {{{{c2::bonds}}}}."
    citations:
      - url: {gone}
        title: Atoms
        quote: Atoms bond into stuff
  - id: 1.1-fine
    text: Things are made of stuff.
    citations:
      - url: {live}
        title: Things
        quote: Things are made of stuff.
terms:
  - {{term: Atom, definition: The smallest part of an element that keeps its properties.}}
  - {{term: Bond, definition: What holds two atoms together in a molecule.}}
questions:
  - id: 1.1-q-broken
    type: single
    stem: What is stuff made of?
    options: [Atoms, Dreams]
    answer: Atoms
    explanation: The page says so.
    key_points: [1.1-broken]
  - id: 1.1-q-fine
    type: true_false
    stem: Things are made of stuff.
    answer: true
    explanation: The page says so.
    key_points: [1.1-fine]
"""
TWO = """id: "2.1"
title: More things
summary: Leaning on 1.1.
reviewed: 2026-11-01
key_points:
  - id: 2.1-own
    text: Stuff is made of atoms.
    citations:
      - url: {live}
        title: Things
        quote: Stuff is made of atoms.
questions:
  - id: 2.1-q-leaning
    type: short_answer
    stem: What holds stuff together?
    answer: Bonds between atoms.
    explanation: See 1.1.
    key_points: [1.1-broken, 2.1-own]
"""


@pytest.fixture
def sources(tmp_path):
    with PageServer() as server:
        urls = {"gone": server.add("/gone", Reply(404, "gone")), "live": server.add("/live", Reply(body=LIVE))}
        folder = tmp_path / "sources" / "demo"
        folder.mkdir(parents=True)
        shutil.copy(FIXTURES / "exams" / "valid.yaml", folder / "exam.yaml")
        (folder / "one.yaml").write_text(ONE.format(**urls), encoding="utf-8")
        (folder / "two.yaml").write_text(TWO.format(**urls), encoding="utf-8")
        yield tmp_path / "sources", urls


def deck_notes(apkg) -> dict[str, tuple[str, str]]:
    """GUID -> (the note's fields, its deck name), read from the package's SQLite collection."""
    with zipfile.ZipFile(apkg) as package:
        (apkg.parent / "collection.anki2").write_bytes(package.read("collection.anki2"))
    with sqlite3.connect(apkg.parent / "collection.anki2") as db:
        decks = {int(k): v["name"] for k, v in json.loads(db.execute("select decks from col").fetchone()[0]).items()}
        rows = db.execute("select n.guid, n.flds, c.did from notes n join cards c on c.nid = n.id").fetchall()
    return {guid: (fields, decks[did]) for guid, fields, did in rows}


def test_one_broken_citation_and_everything_that_depends_on_it(run_cli, sources):
    folder, urls = sources
    built = run_cli("build", "--sources", "sources", "--out", "build", "--today", TODAY, cwd=folder.parent)  # before the audit breaks it
    assert built.code == 0, built.out + built.err
    result = run_cli("audit", "--sources", "sources", "--today", TODAY, "--retries", "0", "--interval", "0", "--timeout", "2",
                     *allow_loopback(), "--cache", "cache", "--no-archive", "--report", "report.json", "--report", "report.md", cwd=folder.parent)
    assert result.code == 1
    [blast] = json.loads((folder.parent / "report.json").read_text())["blast_radius"]
    assert (blast["objective"], blast["status"], blast["url"], blast["where"]) == ("1.1", "dead", urls["gone"], "sources/demo/one.yaml:11")
    assert blast["key_points"] == ["1.1-broken"]
    assert blast["questions"] == ["1.1-q-broken", "2.1-q-leaning"]
    assert blast["generated_questions"] == ["gen-cloze-1.1-broken-c1", "gen-cloze-1.1-broken-c2"]
    assert blast["guide"] == ["study-guide.pdf#objective-1.1", "study-guide.pdf#objective-2.1"]
    assert blast["site"] == ["site/objective-1-1.html", "site/objective-2-1.html"]
    assert blast["counts"] == {"key points": 1, "questions": 2, "generated questions": 2, "deck notes": 3, "guide places": 2, "site pages": 2}

    notes = deck_notes(folder.parent / "build" / "demo" / "deck.apkg")
    named = {(notes[n["guid"]][1], item) for n in blast["notes"] for item in ("1.1-broken", "1.1-q-broken", "2.1-q-leaning") if item in notes[n["guid"]][0]}
    assert named == {("DEMO-1::1 Basics::1.1 Things", "1.1-broken"), ("DEMO-1::1 Basics::1.1 Things", "1.1-q-broken"),
                     ("DEMO-1::2 More::2.1 More things", "2.1-q-leaning")}
    assert [n["deck"] for n in blast["notes"]] == ["DEMO-1::1 Basics::1.1 Things"] * 2 + ["DEMO-1::2 More::2.1 More things"]
    destinations = PdfReader(folder.parent / "build" / "demo" / "study-guide.pdf").named_destinations
    assert {g.split("#")[1] for g in blast["guide"]} <= set(destinations)

    markdown = (folder.parent / "report.md").read_text()
    assert "#### 1\\.1 Things (demo): 1 citation(s); 1 key points, 2 questions, 2 generated questions, 3 deck notes, 2 guide places, 2 site pages" in markdown
    for note in blast["notes"]:  # GUIDs may hold backticks: each in a code span that survives them
        assert any(f"{fence} {note['guid']} {fence}" in markdown or f"`{note['guid']}`" in markdown for fence in ("``", "```"))
    assert "  - questions: `1.1-q-broken`, `2.1-q-leaning`; generated: `gen-cloze-1.1-broken-c1`, `gen-cloze-1.1-broken-c2`" in markdown
    table = result.out[result.out.index("blast radius"):]
    assert "sources/demo/one.yaml:11" in table and "1.1-q-broken, 2.1-q-leaning" in table and "site/objective-2-1.html" in table

