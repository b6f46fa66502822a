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
import re
from collections.abc import Iterable
from dataclasses import dataclass

from pipeline.errors import UsageError
from pipeline.publish import readback
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
    """The state in `text` (the build has read it within bounds, see `build._kept`); empty when there is none.
    An entry that is not what this module writes is a `UsageError` at its line and column (exit 2): the file is
    committed, and guessing would move every note's time."""
    if text is None:
        return {}
    raw = json.loads(text)
    notes = raw.get("notes") if isinstance(raw, dict) else None
    if not isinstance(notes, dict):
        raise _broken("expected an object with the notes", 1, 1)
    state = {}
    for guid, entry in notes.items():
        if not (isinstance(entry, dict) and isinstance(entry.get("hash"), str) and _HASH.fullmatch(entry["hash"])
                and type(entry.get("mod")) is int and 0 <= entry["mod"] < 2**53):
            raise _broken(f"note {guid[:40]!r}: expected {{\"hash\": 32 hex digits, \"mod\": seconds}}", *readback.position(text, ("notes", guid)))
        state[guid] = NoteTime(entry["hash"], entry["mod"])
    return state


_HASH = re.compile(r"[0-9a-f]{32}")


def _broken(reason: str, line: int, col: int) -> UsageError:
    return UsageError(f"{STATE_FILE}:{line}:{col}: error: the deck state cannot be read ({reason}); restore it from git, "
                      "or delete it (every note's time then starts afresh)")


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
