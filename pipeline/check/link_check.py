"""The link check: every link written in a Markdown field must go to an http, https or mailto address.

Renderers drop any other link (`pipeline.text.markdown`), so without this check an author would not learn
that `[notes](../notes.md)` or `[share](smb://server/x)` vanished from the outputs. The error stands at the
line and column where the target is written when it can be found in the file, else at the field.
"""

from __future__ import annotations

from pipeline.diagnostics import Report
from pipeline.load.markdown_fields import locate, markdown_strings, source_lines
from pipeline.load.schema_errors import field_label
from pipeline.load.yamlsource import YamlDocument
from pipeline.text.links import allowed
from pipeline.text.markdown import link_targets

MESSAGE = "link to '{target}' is not allowed: only http://, https:// and mailto: links reach the outputs; write the page's full address"


def check_links(doc: YamlDocument | None, report: Report) -> None:
    """An error for every link in `doc` whose target is not an allowed address."""
    if doc is None:
        return
    lines: list[str] | None = None
    for path, text in markdown_strings(doc.data, ()):
        for target in link_targets(text) if ("[" in text or "<" in text) else []:
            if allowed(target):
                continue
            lines = lines if lines is not None else source_lines(doc)
            where = locate(lines, doc.position(path), target, text.count("\n") + 2)
            report.error(doc.path, where, f"{field_label(path)}: {MESSAGE.format(target=target[:200])}", "link")
