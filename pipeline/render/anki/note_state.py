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

Writing into the sources is this renderer's one step outside its output folder, as `audit` writes the
lock. The file is written only when an entry changed, atomically. Should the build fail after it, the
state is merely ahead: the next build stamps the same notes with the same, newer, times.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from pipeline.errors import UsageError
from pipeline.publish import readback
from pipeline.publish.atomic import write_atomic
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


def load(folder: Path | None) -> dict[str, NoteTime]:
    """The state kept in `folder`; empty when there is none. A file that is there but broken is a
    `UsageError` at its line and column (exit 2): it is committed, and guessing would move every note's time."""
    path = folder / STATE_FILE if folder is not None else None
    if path is None or not (path.exists() or path.is_symlink()):
        return {}
    try:
        raw, text = readback.load(path)
    except readback.Unreadable as exc:
        raise _broken(path, exc.reason, exc.line, exc.col) from None
    notes = raw.get("notes") if isinstance(raw, dict) else None
    if not isinstance(notes, dict):
        raise _broken(path, "expected an object with the notes", 1, 1)
    state = {}
    for guid, entry in notes.items():
        if not (isinstance(entry, dict) and isinstance(entry.get("hash"), str) and _HASH.fullmatch(entry["hash"])
                and type(entry.get("mod")) is int and 0 <= entry["mod"] < 2**53):
            raise _broken(path, f"note {guid[:40]!r}: expected {{\"hash\": 32 hex digits, \"mod\": seconds}}", *readback.position(text, ("notes", guid)))
        state[guid] = NoteTime(entry["hash"], entry["mod"])
    return state


_HASH = re.compile(r"[0-9a-f]{32}")


def _broken(path: Path, reason: str, line: int, col: int) -> UsageError:
    return UsageError(f"{path}:{line}:{col}: error: the deck state cannot be read ({reason}); restore it from git, "
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


def save(folder: Path, state: dict[str, NoteTime]) -> bool:
    """Write the state when it differs from the file; True when it was written."""
    path, text = folder / STATE_FILE, to_text(state)
    try:
        if path.read_text(encoding="utf-8") == text:
            return False
    except OSError:
        pass
    write_atomic(path, text.encode("utf-8"))
    return True
