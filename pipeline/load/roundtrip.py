"""Round-trip YAML for the commands that edit an author's file (`audit --fix-moves`, `examples --update`):
ruamel.yaml keeps comments, key order, quoting and layout, here with the file's own indentation and no
folding of long lines. Each caller still proves its result (a line diff, and the loader's data) before
writing it."""

from __future__ import annotations

from ruamel.yaml import YAML
from ruamel.yaml.util import load_yaml_guess_indent


def round_trip_editor(text: str) -> YAML:
    """A round-trip YAML instance set up to dump `text`'s document back in the author's layout."""
    _, indent, offset = load_yaml_guess_indent(text)
    editor = YAML()  # round-trip
    editor.preserve_quotes = True
    editor.width = 1_000_000  # never fold a long line the author wrote on one
    editor.indent(mapping=indent or 2, sequence=indent or 2, offset=offset or 0)
    return editor
