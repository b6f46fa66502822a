"""The site's copies of the exam's images, under content-hashed names.

Texts render an image as `media/<path in the exam>` (pipeline/text/images.py, the `relative` naming, shared
with bank.json and the guide). The site is what a learner keeps open, serves from a web server that may let
browsers cache files for long, or saves for offline use: a copy at a fixed name would go on showing the old
picture after the author changed it. So the site copies each file to `media/<path>-<12 hex of its SHA-256>.<ending>`
(the deck's naming, pipeline/render/anki/media.py) and points its pages and data at that name: a changed
image is a new address, an unchanged one keeps its name and bytes from build to build.
"""

from __future__ import annotations

from html import escape

from pipeline.text import images


def name(file) -> str:
    """`figures/bits.svg` -> `media/figures/bits-<sha12>.svg`, the site's copy of an exam's file."""
    return f"{images.FOLDER}/{images.hashed_name(file.path, file.sha256)}"


def pointer(files):
    """A function that points a page's or a data script's text at the hashed copies of `files`.

    Only `src` attributes whose value is exactly a file's `media/<path>` change, as HTML writes them
    (`src="..."`) and as a JSON string holding that HTML writes them (`src=\\"...\\"`): prose that mentions
    a path stays as it is."""
    pairs = []
    for file in files:
        old, new = escape(images.href(file.path, "relative")), escape(name(file))
        pairs += [(f'src="{old}"', f'src="{new}"'), (f'src=\\"{old}\\"', f'src=\\"{new}\\"')]

    def point(text: str) -> str:
        if "src=" not in text:
            return text
        for old, new in pairs:
            text = text.replace(old, new)
        return text
    return point
