"""Round-trip YAML for the commands that edit an author's file (`audit --fix-moves`, `examples --update`):
ruamel.yaml keeps comments, key order, quoting and layout, with the file's own indentation and no
folding of long lines. Each caller still compares the result line by line with the original."""

from __future__ import annotations

from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError
from ruamel.yaml.util import load_yaml_guess_indent

from pipeline.errors import PipelineError


def load_round_trip(text: str, path: Path, what: str) -> tuple[YAML, object]:
    """The YAML instance to dump with and the loaded document; `what` names the edit in the error."""
    try:
        _, indent, offset = load_yaml_guess_indent(text)
        yaml = YAML()  # round-trip
        yaml.preserve_quotes = True
        yaml.width = 1_000_000  # never fold a long line the author wrote on one
        yaml.indent(mapping=indent or 2, sequence=indent or 2, offset=offset or 0)
        return yaml, yaml.load(text)
    except YAMLError as exc:
        raise PipelineError(f"{path}:1:1: error: cannot rewrite {what} ({exc}); change it by hand") from None
