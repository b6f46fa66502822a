"""The formula check: every `$...$` and `$$...$$` in a Markdown field must be LaTeX every output can show.

`pipeline.text.formulas` says what the renderer refuses (LaTeX it cannot read, an unknown command, braces
that do not balance, markup or links smuggled through `\\text{}` or `\\href`); this check reports each such
formula at the line where it is written, with the dollar rule that made it a formula, so an author who
meant a price learns to write `\\$`.
"""

from __future__ import annotations

from pipeline.diagnostics import Position, Report
from pipeline.load.markdown_fields import markdown_strings, source_lines
from pipeline.load.schema_errors import field_label
from pipeline.load.yamlsource import YamlDocument
from pipeline.text.formulas import problem
from pipeline.text.markdown import formulas_in

MESSAGE = ("formula ${latex}$ cannot be typeset: {why}; write LaTeX math (e.g. r(d + k) or \\frac{{a}}{{b}}), "
           "or write \\$ for a dollar sign that is not math")


def check_formulas(doc: YamlDocument | None, report: Report) -> None:
    """An error for every formula in `doc` that the renderer refuses."""
    if doc is None:
        return
    lines: list[str] | None = None
    for path, text in markdown_strings(doc.data, ()):
        for latex in formulas_in(text) if "$" in text else []:
            why = problem(latex)
            if why is None:
                continue
            lines = lines if lines is not None else source_lines(doc)
            where = _locate(lines, doc.position(path), latex, text.count("\n") + 2)
            shown = " ".join(latex.split())[:120]
            report.error(doc.path, where, f"{field_label(path)}: {MESSAGE.format(latex=shown, why=why)}", "formula")


def _locate(lines: list[str], start: Position, latex: str, span: int) -> Position:
    """Where the formula's opening dollar is written (its LaTeX as typed, or as a quoted YAML string
    escapes its backslashes), searching the field's lines from its start; the field's start when not found."""
    first = latex.strip().splitlines()[0] if latex.strip() else latex
    written = (first, first.replace("\\", "\\\\"))
    for target in [p + w for w in written for p in ("$$", "$")] + list(written):
        for number in range(start.line, min(start.line + span, len(lines) + 1)):
            col = lines[number - 1].find(target, start.col - 1 if number == start.line else 0)
            if col >= 0:
                return Position(number, col + 1)
    return start
