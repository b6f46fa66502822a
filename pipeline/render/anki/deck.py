"""The Anki renderer: OUT/<exam-id>/deck.apkg and OUT/<exam-id>/deck-changes.json.

The notes come from pipeline/render/anki/deck_notes.py, their note types from pipeline/render/anki/note_types.py. Before the
package is written it is compared with the previous build's (deck-changes.json), and the comparison also
feeds the package timestamp (pipeline/render/anki/deck_timestamp.py), on which Anki's "update if newer" depends.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import genanki

from pipeline.render.anki import apkg, deck_changes, deck_notes, deck_timestamp, note_state, note_types
from pipeline.render.anki.deck_notes import DeckNote
from pipeline.render.anki.media import with_media
from pipeline.view.model import ExamView

if TYPE_CHECKING:  # pipeline.render imports this module for its registry
    from pipeline.render import RenderContext

DECK_FILE = "deck.apkg"
CHANGES_FILE = "deck-changes.json"


def render(ctx: RenderContext) -> list[Path]:
    notes, media = with_media(deck_notes.notes(ctx.view, ctx.warnings, variants=int(ctx.option("variants"))), ctx.view.media)
    models = {t: note_types.genanki_model(t) for t in note_types.NOTE_TYPES if any(n.note_type == t for n in notes)}
    previous = apkg.read(ctx.previous_dir / DECK_FILE) if ctx.previous_dir else None
    changes = deck_changes.compare(previous, snapshot(notes, models.values()))
    timestamp = deck_timestamp.package_timestamp(
        ctx.view, previous.timestamp if previous else None, deck_changes.needs_newer_timestamp(changes)
    )
    deck_path, changes_path = ctx.out_dir / DECK_FILE, ctx.out_dir / CHANGES_FILE
    times = note_state.advance(note_state.parse(ctx.kept.get(note_state.STATE_FILE)), notes, timestamp)
    apkg.write(genanki_decks(ctx.view, notes, models), deck_path, timestamp, {guid: t.mod for guid, t in times.items()}, media)
    ctx.keep[note_state.STATE_FILE] = note_state.to_text(times)  # the build writes it beside the sources
    changes_path.write_text(deck_changes.to_json(changes, timestamp, previous), encoding="utf-8")
    return [deck_path, changes_path]


def genanki_decks(view: ExamView, notes: list[DeckNote], models: dict) -> list[genanki.Deck]:
    decks = {d.name: genanki.Deck(d.deck_id, d.name, d.description) for d in deck_notes.decks(view)}
    for note in notes:
        model = models[note.note_type]
        decks[note.deck].add_model(model)
        decks[note.deck].add_note(genanki.Note(model=model, fields=list(note.fields), tags=list(note.tags), guid=note.guid))
    return list(decks.values())


def snapshot(notes: list[DeckNote], models) -> apkg.DeckContents:
    """The package about to be written, in the shape deck-changes compares (the timestamp comes later)."""
    shapes = {n.guid: apkg.NoteShape(n.guid, n.note_type.model_id, n.fields, n.tags) for n in notes}
    return apkg.DeckContents(0, shapes, {m.model_id: _note_type_shape(m) for m in models})


def _note_type_shape(model: genanki.Model) -> apkg.NoteTypeShape:
    templates = tuple((t["name"], t["qfmt"], t["afmt"]) for t in model.templates)
    return apkg.NoteTypeShape(model.model_id, model.name, tuple(f["name"] for f in model.fields), templates, model.css)
