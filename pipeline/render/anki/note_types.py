"""The Anki note types, frozen: each one's id, fields and card template names never change under that id.

Anki matches a note type on import by its id and compares the names of its fields and templates: when
they differ, it imports a second copy of the note type and marks every note of it "conflicting" instead of
updating it. So the lists below are frozen (tests/test_anki_note_types.py pins them); changing one means a new
`version`, which derives a new id and a new name, and learners get a new note type. The template *text*
and the CSS live in `templates/anki/` and may change freely: a newer package updates them in place.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import genanki

from pipeline.paths import TEMPLATES

TEMPLATE_DIR = TEMPLATES / "anki"
CSS_FILE = "card.css"


def stable_id(*keys: str) -> int:
    """An Anki id (note type, deck) from fixed keys, in genanki's recommended range 2**30 .. 2**31."""
    digest = hashlib.sha256("/".join(keys).encode()).digest()
    return (1 << 30) + int.from_bytes(digest[:8], "big") % (1 << 30)


@dataclass(frozen=True)
class NoteType:
    key: str  # the stable part of the id; never reuse one for a different shape
    version: int  # bump when `fields` or `templates` change
    title: str
    fields: tuple[str, ...]  # the first one is the sort field, and must never be empty
    templates: tuple[tuple[str, str], ...]  # (card template name, file stem in templates/anki/)
    cloze: bool = False

    @property
    def model_id(self) -> int:
        """From the key and version only: the same on every machine and every build."""
        return stable_id("exam-prep-pipeline", "note-type", self.key, f"v{self.version}")

    @property
    def name(self) -> str:
        return f"Exam prep: {self.title} (v{self.version})"


TERM = NoteType(
    "term", 1, "term",
    fields=("Term", "Definition", "Context", "Ref"),
    templates=(("Term to definition", "term-to-definition"), ("Definition to term", "definition-to-term")),
)
# A term whose definition does not stand without it (pipeline/practice/term_cards.py): its own note type,
# so that the definition -> term card is never made (Anki makes a card per template of the note type)
TERM_ONE_WAY = NoteType(
    "term-one-way", 1, "term, one way",
    fields=("Term", "Definition", "Context", "Ref"),
    templates=(("Term to definition", "term-to-definition"),),
)
QUESTION = NoteType(
    "question", 1, "question",
    fields=("Stem", "Instruction", "Options", "Answer", "ModelAnswer", "Explanation", "Sources", "Context", "Ref"),
    templates=(("Question", "question"),),
)
CLOZE = NoteType(
    "cloze", 1, "key point cloze",
    fields=("Text", "Sources", "Context", "Ref"),
    templates=(("Cloze", "cloze"),),
    cloze=True,
)
EXAMPLE = NoteType(
    "example", 1, "worked example",
    fields=("Title", "Code", "Output", "Note", "Run", "Context", "Ref"),
    templates=(("What it prints", "example"),),
)
NOTE_TYPES = (TERM, TERM_ONE_WAY, QUESTION, CLOZE, EXAMPLE)


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _model_parts(note_type: NoteType) -> tuple[str, tuple[tuple[str, str, str], ...]]:
    templates = tuple(
        (name, _read(TEMPLATE_DIR / f"{stem}.front.html"), _read(TEMPLATE_DIR / f"{stem}.back.html"))
        for name, stem in note_type.templates
    )
    return _read(TEMPLATE_DIR / CSS_FILE), templates


def genanki_model(note_type: NoteType) -> genanki.Model:
    """The genanki model of `note_type`, its templates read from templates/anki/ at each build."""
    css, templates = _model_parts(note_type)
    return genanki.Model(
        note_type.model_id,
        note_type.name,
        fields=[{"name": name} for name in note_type.fields],
        templates=[{"name": name, "qfmt": front, "afmt": back} for name, front, back in templates],
        css=css,
        model_type=genanki.Model.CLOZE if note_type.cloze else genanki.Model.FRONT_BACK,
    )
