"""Writing an .apkg byte for byte the same for the same notes and timestamp, and reading one back.

genanki's own `write_to_file` stamps the zip entries with its temporary database's file time, so two builds
of the same sources differ in bytes (and it leaves that file behind). Here genanki writes the database as
usual (`write_to_db`), but into memory, and the zip entries carry the package timestamp.

`read` gives back what a learner's Anki would compare on the next import (GUIDs, note types, fields, tags,
modification time), for deck-changes.json. It reads only packages this pipeline wrote (genanki's
`collection.anki2` layout).
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
import sqlite3
import zipfile
from dataclasses import dataclass
from pathlib import Path

import genanki

COLLECTION = "collection.anki2"


@dataclass(frozen=True)
class NoteShape:
    """A note as Anki compares it on import."""

    guid: str
    model_id: int
    fields: tuple[str, ...]
    tags: tuple[str, ...]


@dataclass(frozen=True)
class NoteTypeShape:
    """A note type as Anki compares it on import: its name, fields, card templates and CSS."""

    model_id: int
    name: str
    fields: tuple[str, ...]
    templates: tuple[tuple[str, str, str], ...]  # (name, front, back)
    css: str


@dataclass(frozen=True)
class DeckContents:
    """What one package holds, in plain values."""

    timestamp: int
    notes: dict[str, NoteShape]  # by GUID
    note_types: dict[int, NoteTypeShape]  # by id


def write(decks: list[genanki.Deck], path: Path, timestamp: int, note_mods: dict[str, int] | None = None,
          media: list[tuple[str, bytes]] | None = None) -> None:
    """`note_mods` gives notes (by GUID) their own modification times; others get `timestamp`. `media` are the
    (file name, bytes) the fields show: stored as genanki's `media_files` are, entries "0", "1"... and a
    `media` map of entry to name, sorted by name so the bytes do not depend on the order they were found."""
    # The database is built in memory and serialized: the same bytes a file would hold, without the disk.
    connection = sqlite3.connect(":memory:")
    try:
        genanki.Package(decks).write_to_db(connection.cursor(), timestamp, itertools.count(timestamp * 1000))
        _set_note_mods(connection, note_mods or {})
        connection.commit()
        database = connection.serialize()
    finally:
        connection.close()
    with zipfile.ZipFile(path, "w") as package:
        package.writestr(_entry(COLLECTION, timestamp), database)
        files = sorted(media or [])
        package.writestr(_entry("media", timestamp), json.dumps({str(i): name for i, (name, _) in enumerate(files)}))
        for i, (_, content) in enumerate(files):
            package.writestr(_entry(str(i), timestamp), content)


def _set_note_mods(connection: sqlite3.Connection, note_mods: dict[str, int]) -> None:
    """Each note's and its cards' modification time: what Anki's "update if newer" compares per note."""
    for guid, mod in sorted(note_mods.items()):
        connection.execute("UPDATE notes SET mod = ? WHERE guid = ?", (mod, guid))
        connection.execute("UPDATE cards SET mod = ? WHERE nid IN (SELECT id FROM notes WHERE guid = ?)", (mod, guid))


def _entry(name: str, timestamp: int) -> zipfile.ZipInfo:
    when = max(dt.datetime.fromtimestamp(timestamp, dt.UTC), dt.datetime(1980, 1, 1, tzinfo=dt.UTC))  # zip dates start in 1980
    entry = zipfile.ZipInfo(name, date_time=when.timetuple()[:6])
    entry.compress_type = zipfile.ZIP_DEFLATED  # 22 KB instead of 148 KB for the sample: learners download it to phones
    return entry


def read(path: Path) -> DeckContents | None:
    """The package at `path`, or None when there is none or it is not one this pipeline wrote."""
    try:
        with zipfile.ZipFile(path) as package:
            return _read_database(package.read(COLLECTION))
    except (OSError, KeyError, zipfile.BadZipFile, sqlite3.DatabaseError, ValueError):
        return None


def _read_database(database: bytes) -> DeckContents:
    connection = sqlite3.connect(":memory:")
    try:
        connection.deserialize(database)
        rows = connection.execute("SELECT guid, mid, flds, tags, mod FROM notes").fetchall()
        (models_json,) = connection.execute("SELECT models FROM col").fetchone()
    finally:
        connection.close()
    notes = {guid: NoteShape(guid, mid, tuple(flds.split("\x1f")), tuple(tags.split())) for guid, mid, flds, tags, _ in rows}
    models_data = json.loads(models_json).values()
    models = [_note_type_shape(model) for model in models_data]
    # the package time: note types carry it, notes may carry older times of their own (note_state.py)
    stamp = max([*(row[4] for row in rows), *(int(model.get("mod", 0)) for model in models_data)], default=0)
    return DeckContents(stamp, notes, {m.model_id: m for m in models})


def _note_type_shape(model: dict) -> NoteTypeShape:
    fields = tuple(field["name"] for field in model["flds"])
    templates = tuple((t["name"], t["qfmt"], t["afmt"]) for t in model["tmpls"])
    return NoteTypeShape(int(model["id"]), model["name"], fields, templates, model["css"])
