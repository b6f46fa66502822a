"""`anki_overhead`: the Anki renderer's time over genanki alone writing the same notes.

Both sides write the sample's deck into a temporary folder, side by side in one run. The renderer's side
is the whole `render` of a rebuild (notes from the content, templates read, the previous deck read and
compared, the timestamp chosen, deck.apkg and deck-changes.json written); genanki's side is what a
script using genanki alone does with the very same field values: make the models, decks and notes, and
`Package.write_to_file` them. (Reusing one genanki Package across runs would not be a fair side: genanki
caches each model's required fields and each note's cards on the objects, work every real build does.)
"""

from __future__ import annotations

import contextlib
import datetime as dt
import statistics
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import genanki

from bench import Measure, median_seconds
from pipeline.check.validate import validate
from pipeline.derive import build_view
from pipeline.render import RenderContext
from pipeline.render.anki import deck as anki_render
from pipeline.render.anki import deck_notes, note_types
from pipeline.settings.reader import exam_inputs

SAMPLE = Path(__file__).resolve().parent.parent / "sources"
TODAY = dt.date(2026, 11, 29)


def _context(out: Path, previous: Path) -> RenderContext:
    content = validate(SAMPLE, TODAY).exams[0]
    return RenderContext(build_view(exam_inputs(content)), out, previous)


def _genanki_alone(ctx: RenderContext, notes: list[deck_notes.DeckNote], path: Path) -> None:
    models = {t: note_types.genanki_model(t) for t in note_types.NOTE_TYPES}
    genanki.Package(anki_render.genanki_decks(ctx.view, notes, models)).write_to_file(str(path), timestamp=0)


@contextlib.contextmanager
def _temporary_files_in(folder: Path) -> Iterator[None]:
    """genanki's write_to_file leaves its temporary database behind: keep those in our folder, removed at the end."""
    saved, tempfile.tempdir = tempfile.tempdir, str(folder)
    try:
        yield
    finally:
        tempfile.tempdir = saved


def _interleaved(ours: Callable[[], object], theirs: Callable[[], object], rounds: int = 15) -> tuple[float, float]:
    """Median times of the two, run in turns: a slow moment of a shared machine then hits both sides alike."""
    pairs = [(median_seconds(ours, repeat=1), median_seconds(theirs, repeat=1)) for _ in range(rounds)]
    return statistics.median(p[0] for p in pairs), statistics.median(p[1] for p in pairs)


def measure() -> list[Measure]:
    with tempfile.TemporaryDirectory() as tmp, _temporary_files_in(Path(tmp)):
        previous, out = Path(tmp, "previous"), Path(tmp, "out")
        previous.mkdir(), out.mkdir()
        ctx = _context(out, previous)
        anki_render.render(RenderContext(ctx.view, previous))  # the build before
        notes = deck_notes.notes(ctx.view)
        ours, alone = _interleaved(lambda: anki_render.render(ctx), lambda: _genanki_alone(ctx, notes, out / "genanki.apkg"))
    detail = f"render {ours * 1000:.1f} ms vs genanki alone {alone * 1000:.1f} ms ({len(notes)} notes)"
    return [Measure("anki_overhead", ours / alone, "<= 1.2", detail)]
