"""deck-changes.json: what a learner's Anki will see change when they import this deck over the last one.

Anki adds new notes and updates changed ones on import, but it never deletes a note that left the deck:
the `removed` list is the learner's only way to find those. Note types whose templates or CSS changed are
listed too, since importing them restyles every card of that type. The comparison is with the previous
build's deck.apkg in the same output folder; the output is sorted and has no clock in it.
"""

from __future__ import annotations

import html
import json
import re

from pipeline.render.anki.apkg import DeckContents, NoteShape, NoteTypeShape

_TAG = re.compile(r"<[^>]*>")


def _plain(field_html: str, limit: int = 120) -> str:
    """A field as a one-line text a learner can search for in Anki's browser."""
    text = " ".join(html.unescape(_TAG.sub(" ", field_html)).split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _describe(note: NoteShape, note_types: dict[int, NoteTypeShape]) -> dict:
    note_type = note_types.get(note.model_id)
    names = note_type.fields if note_type else ()
    ref = note.fields[names.index("Ref")] if "Ref" in names else ""
    return {"guid": note.guid, "note_type": note_type.name if note_type else str(note.model_id),
            "ref": _plain(ref), "front": _plain(note.fields[0])}


def _changed_fields(old: NoteShape, new: NoteShape, note_type: NoteTypeShape) -> list[str]:
    names = [n for n, a, b in zip(note_type.fields, old.fields, new.fields, strict=False) if a != b]
    return names + (["tags"] if old.tags != new.tags else [])


def changed_notes(previous: DeckContents, current: DeckContents) -> list[dict]:
    found = []
    for guid, new in current.notes.items():
        old = previous.notes.get(guid)
        if old is not None and (old.fields, old.tags, old.model_id) != (new.fields, new.tags, new.model_id):
            what = _changed_fields(old, new, current.note_types[new.model_id]) or ["note type"]
            found.append({**_describe(new, current.note_types), "changed": what})
    return _sorted(found)


def changed_note_types(previous: DeckContents, current: DeckContents) -> list[dict]:
    found = []
    for model_id, new in current.note_types.items():
        old = previous.note_types.get(model_id)
        parts = {"fields": (old.fields, new.fields), "templates": (old.templates, new.templates), "css": (old.css, new.css)} if old else {}
        what = [part for part, (a, b) in parts.items() if a != b]
        if what:
            found.append({"id": model_id, "name": new.name, "changed": what})
    return sorted(found, key=lambda entry: entry["name"])


def _sorted(entries: list[dict]) -> list[dict]:
    return sorted(entries, key=lambda e: (e["note_type"], e["ref"], e["guid"]))


def compare(previous: DeckContents | None, current: DeckContents) -> dict:
    """The changes from `previous` (None: no earlier build, so every note is added) to `current`."""
    before = previous or DeckContents(0, {}, {})
    added = [_describe(n, current.note_types) for guid, n in current.notes.items() if guid not in before.notes]
    removed = [_describe(n, before.note_types) for guid, n in before.notes.items() if guid not in current.notes]
    return {
        "previous_build": previous is not None,
        "notes": {"added": _sorted(added), "changed": changed_notes(before, current), "removed": _sorted(removed)},
        "note_types_added": sorted(nt.name for i, nt in current.note_types.items() if i not in before.note_types),
        "note_types_changed": changed_note_types(before, current),
    }


def needs_newer_timestamp(changes: dict) -> bool:
    """Whether Anki must see this package as newer than the last one to apply it (added notes need not)."""
    return bool(changes["notes"]["changed"] or changes["note_types_changed"])


def warnings(changes: dict, timestamp: int, previous: DeckContents | None) -> list[str]:
    """Only SOURCE_DATE_EPOCH can leave a changed package not newer (see pipeline/render/anki/deck_timestamp.py): say so."""
    if previous is None or timestamp > previous.timestamp or not needs_newer_timestamp(changes):
        return []
    return [
        f"notes or note types changed, but the package time {timestamp} is not newer than the previous build's "
        f"{previous.timestamp}: Anki will not apply the changes; set SOURCE_DATE_EPOCH to the time of the newest change"
    ]


def to_json(changes: dict, timestamp: int, previous: DeckContents | None) -> str:
    document = {
        **changes,
        "package_timestamp": timestamp,
        "previous_package_timestamp": previous.timestamp if previous else None,
        "warnings": warnings(changes, timestamp, previous),
    }
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
