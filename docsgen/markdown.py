"""Text from the code made safe for a Markdown table cell: what a help string or a description says is
shown as written (`<exam>` is not an HTML tag, `*` not emphasis, `|` not a cell's end); code spans stay."""

from __future__ import annotations

import re

_CODE = re.compile(r"(`[^`]*`)")


def cell(text: str) -> str:
    """One table cell: code spans kept (their `|` escaped, which the tables extension reads), the rest escaped."""
    out = []
    for piece in _CODE.split(" ".join(text.split())):
        if piece.startswith("`") and piece.endswith("`") and len(piece) > 1:
            out.append(piece.replace("|", "\\|"))
        else:
            out.append(re.sub(r"([\\*|\[\]])", r"\\\1", piece).replace("<", "&lt;").replace(">", "&gt;"))
    return "".join(out)


def code(text: str) -> str:
    """`text` as a code span in a table cell."""
    return "`" + text.replace("|", "\\|") + "`"


def table(head: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "| " + " | ".join("---" for _ in head) + " |"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"
