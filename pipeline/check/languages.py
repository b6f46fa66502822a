"""An example's `language` names a language the highlighter knows: a Pygments lexer name or alias
(`python`, `bash`, `console`, `sql`, `text`...). An unknown one is a warning with the closest known name:
the outputs show the name beside the code and mark the code with it (`language-<name>`), so a typo shows."""

from __future__ import annotations

import functools

from pipeline.diagnostics import Report
from pipeline.load.content import ObjectiveFile
from pipeline.text.messages import did_you_mean

CODE = "example-language"


@functools.cache
def known() -> frozenset[str]:
    from pygments.lexers import get_all_lexers  # the highlighter's own list, not a copy of it

    return frozenset(alias.lower() for _, aliases, _, _ in get_all_lexers() for alias in aliases)


def check_languages(file: ObjectiveFile, report: Report) -> None:
    for i, example in file.indexed("examples"):
        if example.language not in known():
            hint = did_you_mean(example.language, known())
            report.warning(file.path, file.position(("examples", i, "language")),
                           f"examples[{i}].language: '{example.language}' is not a language Pygments knows{hint} "
                           "(use a lexer name such as python, bash, console, sql or text)", CODE)
