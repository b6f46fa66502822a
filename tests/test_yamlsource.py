"""Reading YAML with positions: values, keys, duplicates, dates kept as text, unreadable files."""

from __future__ import annotations

import pytest

from pipeline.errors import SourceError
from pipeline.load.yamlsource import Position, load_yaml


def write(tmp_path, text: str, name: str = "f.yaml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_positions_of_values_and_keys(tmp_path):
    doc = load_yaml(write(tmp_path, "a: 1\nlist:\n  - x: yes\n    y: [1, 2]\n"))
    assert doc.data == {"a": 1, "list": [{"x": True, "y": [1, 2]}]}
    assert doc.values[("list", 0, "x")] == Position(3, 8)
    assert doc.keys[("list", 0, "y")] == Position(4, 5)
    assert doc.values[("list", 0, "y", 1)] == Position(4, 12)


def test_missing_path_falls_back_to_parent(tmp_path):
    doc = load_yaml(write(tmp_path, "a:\n  b: 1\n"))
    assert doc.position(("a", "missing", 3)) == Position(2, 3)


def test_dates_stay_text_so_the_schema_judges_them(tmp_path):
    doc = load_yaml(write(tmp_path, "good: 2026-11-07\nbad: 2026-02-30\n"))
    assert doc.data == {"good": "2026-11-07", "bad": "2026-02-30"}


def test_duplicate_keys_are_recorded_not_overwritten(tmp_path):
    doc = load_yaml(write(tmp_path, "a: 1\nb: 2\na: 3\n"))
    assert doc.data == {"a": 1, "b": 2}
    assert doc.duplicate_keys == [(("a",), Position(3, 1))]


@pytest.mark.parametrize(
    ("text", "position", "message"),
    [
        ("a: [1, 2\nb: 3\n", Position(1, 4), "invalid YAML: the [ opened here is never closed; close it with ] at the end of line 1"),
        ("a: 'open\n", Position(1, 4), "invalid YAML: the ' opened here is never closed"),
        ("", Position(1, 1), "the file is empty; expected a mapping of keys"),
        ("a: 1\n---\nb: 2\n", Position(2, 1), "invalid YAML: expected a single document in the stream, but found another document"),
    ],
)
def test_syntax_errors_carry_their_place(tmp_path, text, position, message):
    with pytest.raises(SourceError) as caught:
        load_yaml(write(tmp_path, text))
    assert caught.value.position == position
    assert caught.value.message.startswith(message)


def test_not_utf8_points_at_the_byte(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes("a: 1\nb: caf\xe9\n".encode("latin-1"))
    with pytest.raises(SourceError) as caught:
        load_yaml(path)
    assert (caught.value.position, caught.value.message) == (Position(2, 7), "not UTF-8 text (byte 0xe9); save the file as UTF-8")


def test_missing_file(tmp_path):
    with pytest.raises(SourceError, match="file not found"):
        load_yaml(tmp_path / "nope.yaml")
