"""The round-trip YAML editor (`pipeline.load.roundtrip`) that `audit --fix-moves` falls back to and
`examples --update` writes with: one value changed, every other byte of the author's file as it was
(indentation and sequence offset guessed from the file, quotes, comments, a long line never folded).
Those commands' own tests run in the slow set; this one keeps the editor in `make test-fast`."""

from __future__ import annotations

import io

from pipeline.load.roundtrip import round_trip_editor

LONG = "word " * 60  # 300 characters on one line: a default emitter folds it at 80
TEXT = f"""\
id: '1.1'   # quoted as the author quoted it
key_points:
    -   id: a
        text: "{LONG.strip()}"
        url: https://old.example/a
    -   id: b
        text: Plain.
"""


def test_one_changed_value_leaves_every_other_byte_of_the_authors_layout():
    editor = round_trip_editor(TEXT)
    data = editor.load(TEXT)
    data["key_points"][0]["url"] = "https://new.example/b"
    out = io.StringIO()
    editor.dump(data, out)
    assert out.getvalue() == TEXT.replace("https://old.example/a", "https://new.example/b")
    assert out.getvalue() != TEXT  # the edit itself was written
