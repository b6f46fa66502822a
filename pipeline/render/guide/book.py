"""What makes the guide read like a book rather than a dump: status marks with one legend, the exam
essentials of an objective, code wrapped at the page's width with continued lines marked, and write-in
space sized to the answer expected.
"""

from __future__ import annotations

import math

from pipeline.shapes.parts import Text
from pipeline.text import essential as essential_text
from pipeline.text.plaintext import to_plain
from schema.citation_status import LABELS, Status

# One mark per quote, explained once in the legend. Statuses that need an author's attention are also
# printed in words beside the quote (validate fails the build on most of them anyway).
MARKS = {Status.FOUND: "✓", Status.UNCHECKED: "○", Status.ARCHIVED: "↺", Status.MOVED: "→"}
PROBLEM_MARK = "✗"
QUIET = frozenset({Status.FOUND, Status.UNCHECKED})  # the mark alone tells; an archived or moved quote also says where (a link)

# Characters of monospace that fit the text block: 7.5 pt DejaVu Sans Mono advances 0.602 em (4.5 pt) a
# character; the block is 140 mm (397 pt) less the code box's padding. Longer lines are cut here at a
# space, the continuation marked, rather than left to the browser's wrapping, which marks nothing and
# cuts inside tokens ("weigh↪ts", "50.↪0%").
CODE_COLUMNS = 84
CODE_PT = 7.5  # pre's size in guide.css
CONTINUED = "↪ "
ANSWER_CHARS_PER_LINE = 50


def status_mark(status: Status) -> str:
    return MARKS.get(status, PROBLEM_MARK)


def legend() -> list[tuple[str, str, str]]:
    """(status, mark, label) for the legend: the quiet marks, then the one for every problem."""
    rows = [(s.value, m, LABELS[s]) for s, m in MARKS.items()]
    problems = [LABELS[s] for s in Status if s not in MARKS]
    return [*rows, ("problem", PROBLEM_MARK, "a problem, named in words beside the quote: " + ", ".join(problems))]


def essential(point) -> str:
    """A key point's exam essential (a `KeyPointView`): the author's `essential:`, else the whole point
    without its tables, cloze phrases in bold (pipeline/text/essential.py; validate warns when an
    essential leaves out a number or term that a question citing the point tests)."""
    return essential_text.printed(point.essential_md, point.text_md)


def _cut(line: str, width: int, floor: int) -> int:
    """Where to cut `line` to at most `width` characters: after its last space in reach (never before
    `floor`, the indent); 0 when no space is in reach (a token longer than the line)."""
    at = line.rfind(" ", floor + 1, width)
    return at + 1 if at > floor else 0


def code_columns(text: str, columns: int = CODE_COLUMNS) -> int:
    """The columns a code block needs so that no token is cut: CODE_COLUMNS, or more when a token (with its
    indent and the continuation mark) is longer; the block is then set smaller to fit (`code_scale`)."""
    need = columns
    for line in text.splitlines():
        indent = len(line) - len(line.lstrip())
        longest = max((len(t) for t in line.split()), default=0)
        need = max(need, indent + len(CONTINUED) + longest + 1)
    return need


def code_scale(text: str, columns: int = CODE_COLUMNS) -> float:
    """The font size factor that fits `code_columns(text)` into the text block (1.0 for most code)."""
    return round(columns / code_columns(text, columns), 3)


def code_size(text: str) -> str:
    """The block's font size, when a token longer than a line makes it smaller: a CSS declaration or ''."""
    scale = code_scale(text)
    return f"font-size: {CODE_PT * scale:.2f}pt" if scale < 1 else ""


def wrap_code(text: str, columns: int = CODE_COLUMNS) -> str:
    """Lines longer than the block cut at a space, never inside a token (so copying a token copies it
    whole); each continuation starts with ↪ under the line's indent. A token longer than a line widens the
    block (`code_columns`), which the template sets smaller."""
    width = code_columns(text, columns)
    out = []
    for line in text.splitlines():
        indent = line[: len(line) - len(line.lstrip())]
        prefix = ""
        while len(prefix) + len(line) > width:
            cut = _cut(line, width - len(prefix), len(indent) if not prefix else 0)
            if not cut:
                break
            out.append(prefix + line[:cut].rstrip(" "))
            line, prefix = line[cut:], indent + CONTINUED
        out.append(prefix + line)
    return "\n".join(out)


def code_wraps(text: str, columns: int = CODE_COLUMNS) -> bool:
    return any(len(line) > code_columns(text, columns) for line in text.splitlines())


def answer_lines(part: Text) -> int:
    """Write-in lines for a written answer: one per ~50 characters of the model answer, one to six."""
    expected = len(to_plain(part.answer_md()))
    return max(1, min(6, math.ceil(expected / ANSWER_CHARS_PER_LINE)))
