"""Placeholders left in the sources: what a skeleton (`new exam`, `new objective`) or a copied example holds
until the author replaces it. Each is a warning with the code `placeholder` (an error under --strict):

- `TODO` in any text;
- an address on example.com, example.org or example.net (RFC 2606 reserves them for examples: no real
  page is there to cite);
- a section weight of 0 (the skeleton's; a section that counts for nothing is rarely meant).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

from pipeline.diagnostics import Report
from pipeline.load.content import SourceFile
from pipeline.load.schema_errors import field_label
from pipeline.load.yamlsource import PathKey

CODE = "placeholder"
TODO = re.compile(r"\bTODO\b")
EXAMPLE_HOSTS = ("example.com", "example.org", "example.net")


def _strings(value: Any, path: PathKey = ()) -> Iterator[tuple[PathKey, str]]:
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _strings(inner, (*path, key))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            yield from _strings(inner, (*path, i))
    elif isinstance(value, str):
        yield path, value


def _example_host(text: str) -> str | None:
    if not text.startswith(("http://", "https://")):
        return None
    host = (urlsplit(text).hostname or "").lower()
    return next((h for h in EXAMPLE_HOSTS if host == h or host.endswith("." + h)), None)


def check_placeholders(source: SourceFile | None, report: Report) -> None:
    """Every placeholder of one loaded file, each at its node."""
    if source is None or not isinstance(source.doc.data, dict):
        return
    for path, text in _strings(source.doc.data):
        if (host := _example_host(text)) is not None:
            report.warning(source.path, source.position(path), f"{field_label(path)}: {host} is a placeholder address (reserved for "
                           "examples, no real page is there); cite the page itself", CODE)
        elif TODO.search(text):
            report.warning(source.path, source.position(path), f"{field_label(path)}: still says TODO; write the real content", CODE)
    for i, section in enumerate(source.doc.data.get("sections") or []):
        if isinstance(section, dict) and section.get("weight") == 0 and not isinstance(section.get("weight"), bool):
            report.warning(source.path, source.position(("sections", i, "weight")), f"sections[{i}].weight: 0, the skeleton's "
                           "placeholder; write the section's share of the exam in percent, as the vendor publishes it", CODE)
