"""The images a deck's notes show, as the package's media files.

A collection's media folder is flat and shared by every deck a learner has, and Anki keeps a file it already
has under a name: so each file goes in under its flat name (`pipeline.text.images.flat_name`) with the first
12 hex digits of its SHA-256 before the ending. A changed image is then a new name, so the fields that show
it change and Anki updates those notes in place on the next import (the unchanged ones stay as they were),
instead of keeping the old picture under the old name.
"""

from __future__ import annotations

import dataclasses

from pipeline.render.anki.deck_notes import DeckNote
from pipeline.text.images import flat_name, hashed_name


def anki_name(file) -> str:
    """`figures--bits.svg` of sha256 ab12... -> `figures--bits-ab12....svg`."""
    return hashed_name(flat_name(file.path), file.sha256)


def with_media(notes: list[DeckNote], files) -> tuple[list[DeckNote], list[tuple[str, bytes]]]:
    """The notes with each image pointed at its package name, and the (name, bytes) the notes show."""
    names = {f'src="{flat_name(f.path)}"': (f'src="{anki_name(f)}"', f) for f in files}
    shown: dict[str, bytes] = {}
    result = []
    for note in notes:
        fields = []
        for text in note.fields:
            if 'src="' in text:
                for written, (name, file) in names.items():
                    if written in text:
                        text = text.replace(written, name)
                        shown[anki_name(file)] = file.media_bytes
            fields.append(text)
        result.append(dataclasses.replace(note, fields=tuple(fields)) if tuple(fields) != note.fields else note)
    return result, sorted(shown.items())
