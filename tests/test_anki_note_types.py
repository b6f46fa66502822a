"""The note types are frozen: under one id, the fields and card templates never change.

Anki compares a note type's field and template names on import; when they differ under the same id it
imports a copy and marks the learner's notes "conflicting" instead of updating them. If this test fails
because you changed a list in pipeline/render/anki/note_types.py: bump that note type's `version` (a new id and name)
and add the new entry below; never edit an existing entry.
"""

from __future__ import annotations

import re

import pytest

from pipeline.render.anki.note_types import NOTE_TYPES, genanki_model

FROZEN = {
    1211330473: ("Exam prep: term (v1)", ("Term", "Definition", "Context", "Ref"), ("Term to definition", "Definition to term")),
    1849842645: (
        "Exam prep: question (v1)",
        ("Stem", "Instruction", "Options", "Answer", "ModelAnswer", "Explanation", "Sources", "Context", "Ref"),
        ("Question",),
    ),
    1244352007: ("Exam prep: key point cloze (v1)", ("Text", "Sources", "Context", "Ref"), ("Cloze",)),
    1828034686: ("Exam prep: worked example (v1)", ("Title", "Code", "Output", "Note", "Run", "Context", "Ref"), ("What it prints",)),
    1819826065: ("Exam prep: term, one way (v1)", ("Term", "Definition", "Context", "Ref"), ("Term to definition",)),
}


@pytest.mark.parametrize("note_type", NOTE_TYPES, ids=lambda t: t.key)
def test_note_type_is_frozen_under_its_id(note_type):
    model = genanki_model(note_type)
    assert model.model_id in FROZEN, f"new note type id {model.model_id}: add it to FROZEN (and keep the old entries)"
    shape = (model.name, tuple(f["name"] for f in model.fields), tuple(t["name"] for t in model.templates))
    assert shape == FROZEN[model.model_id], "fields or templates changed under the same id: bump the note type's version"


def test_ids_are_distinct_and_in_genanki_range():
    ids = [t.model_id for t in NOTE_TYPES]
    assert len(set(ids)) == len(ids)
    assert all(1 << 30 <= i < 1 << 31 for i in ids)


def test_every_template_uses_only_its_fields():
    """A template naming a field the note type lacks renders nothing there; a typo would pass silently."""
    checked = 0
    for note_type in NOTE_TYPES:
        model = genanki_model(note_type)
        used = {name for t in model.templates for name in re.findall(r"\{\{[#/^]?(?:cloze:)?(\w+)\}\}", t["qfmt"] + t["afmt"])}
        assert used, note_type.key  # the pattern found its fields: an empty set would pass the check below
        assert used - {"FrontSide"} <= set(note_type.fields), (note_type.key, used)
        checked += 1
    assert checked == len(NOTE_TYPES) > 0
