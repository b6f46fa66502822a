"""What makes the guide read like a book rather than a dump: status marks with one legend, the exam
essentials of an objective, code wrapped at the page's width with continued lines marked, and write-in
space sized to the answer expected.
"""

from __future__ import annotations

import math
import re

from pipeline.shapes.parts import Text
from pipeline.text import cloze
from pipeline.text.plaintext import to_plain
from schema.citation_status import LABELS, Status

# One mark per quote, explained once in the legend. Statuses that need an author's attention are also
# printed in words beside the quote (validate fails the build on most of them anyway).
MARKS = {Status.FOUND: "✓", Status.UNCHECKED: "○", Status.ARCHIVED: "↺", Status.MOVED: "→"}
PROBLEM_MARK = "✗"
QUIET = frozenset({Status.FOUND, Status.UNCHECKED})  # the mark alone tells; an archived or moved quote also says where (a link)

# Characters of monospace that fit the text block: 7.5 pt DejaVu Sans Mono advances 0.602 em (4.5 pt) a
# character; the block is 140 mm (397 pt) less the code box's padding. Longer lines are cut here, the
# continuation marked, rather than left to the browser's wrapping, which marks nothing.
CODE_COLUMNS = 84
CONTINUED = "↪ "
ANSWER_CHARS_PER_LINE = 50


def status_mark(status: Status) -> str:
    return MARKS.get(status, PROBLEM_MARK)


def legend() -> list[tuple[str, str, str]]:
    """(status, mark, label) for the legend: the quiet marks, then the one for every problem."""
    rows = [(s.value, m, LABELS[s]) for s, m in MARKS.items()]
    problems = [LABELS[s] for s in Status if s not in MARKS]
    return [*rows, ("problem", PROBLEM_MARK, "a problem, named in words beside the quote: " + ", ".join(problems))]


def essential(text_md: str) -> str:
    """A key point's exam essential: the sentences holding its cloze marks with the hidden phrases in
    bold (what the author marked as worth testing), else its first sentence."""
    if cloze.marks(text_md):
        return cloze.CLOZE.sub(lambda m: f"**{m['answer']}**", cloze.sentences_with_any(text_md))
    text = " ".join(text_md.split())
    return re.split(r"(?<=[.!?])\s+(?=[A-Z(])", text, maxsplit=1)[0]


def wrap_code(text: str, columns: int = CODE_COLUMNS) -> str:
    """Lines longer than `columns` cut, each continuation starting with ↪ (indent kept)."""
    out = []
    for line in text.splitlines():
        indent = line[: len(line) - len(line.lstrip())]
        room = columns - len(indent) - len(CONTINUED)
        out.append(line[:columns])
        rest = line[columns:]
        while rest:
            out.append(indent + CONTINUED + rest[:room])
            rest = rest[room:]
    return "\n".join(out)


def code_wraps(text: str, columns: int = CODE_COLUMNS) -> bool:
    return any(len(line) > columns for line in text.splitlines())


def answer_lines(part: Text) -> int:
    """Write-in lines for a written answer: one per ~50 characters of the model answer, one to six."""
    expected = len(to_plain(part.answer_md()))
    return max(1, min(6, math.ceil(expected / ANSWER_CHARS_PER_LINE)))
