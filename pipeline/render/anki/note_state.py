"""Each note's modification time: when its own content last changed, kept in `deck.state.json`.

Anki's import ("update if newer") updates a note when the package says it is newer than the copy the
learner holds. Were every note stamped with the build's time, an edit to one question would make Anki
report every note updated, and overwrite any note a learner had edited. So each note gets its own time,
which moves forward only when that note's content (note type, fields, tags, deck) changes.

The times live beside the citation lock, in `sources/<exam>/deck.state.json`, committed like the lock:
one entry per note GUID with the hash of its content and its time. A fresh clone, a CI build and an
author's build then stamp unchanged notes alike. A changed or new note gets the package time (see
deck_timestamp.py), and at least one second past its previous time. The same sources and state give the
same times: nothing here reads the clock.

The renderer never writes into the sources itself: it hands the new state to the build (`RenderContext.keep`),
which writes it, atomically and only when it changed, once the outputs are published (pipeline/build.py).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass

from pipeline.render.anki.deck_notes import DeckNote

STATE_FILE = "deck.state.json"
ABOUT = "Each Anki note's modification time, moved forward only when the note's content changes (pipeline/render/anki/note_state.py). Commit it with the sources."


@dataclass(frozen=True)
class NoteTime:
    digest: str
    mod: int


def content_digest(note: DeckNote) -> str:
    """What Anki compares of a note, hashed: a change to any of it is a change to the note."""
    shape = [note.note_type.model_id, list(note.fields), list(note.tags), note.deck]
    return hashlib.sha256(json.dumps(shape, ensure_ascii=False).encode()).hexdigest()[:32]


def parse(text: str | None) -> dict[str, NoteTime]:
    """The state in `text`; empty when there is none or it cannot be read (every note is then new)."""
    if text is None:
        return {}
    try:
        notes = json.loads(text)["notes"]
        return {guid: NoteTime(entry["hash"], int(entry["mod"])) for guid, entry in notes.items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def advance(state: dict[str, NoteTime], notes: Iterable[DeckNote], now: int) -> dict[str, NoteTime]:
    """The state after this build: unchanged notes keep their time, changed and new ones get `now`
    (at least one second past their previous time). Notes no longer in the deck are dropped."""
    result = {}
    for note in notes:
        digest, old = content_digest(note), state.get(note.guid)
        if old is not None and old.digest == digest:
            result[note.guid] = old
        else:
            result[note.guid] = NoteTime(digest, max(now, old.mod + 1) if old else now)
    return result


def to_text(state: dict[str, NoteTime]) -> str:
    notes = {guid: {"hash": t.digest, "mod": t.mod} for guid, t in sorted(state.items())}
    return json.dumps({"about": ABOUT, "notes": notes}, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
