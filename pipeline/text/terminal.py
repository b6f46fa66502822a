"""Text from outside (a page, a header, an archive's answer, a file name) made safe to print.

A terminal obeys what it is sent: ESC starts a control sequence (colour, cursor moves, a window title,
on some terminals a hyperlink or a clipboard write), CR and BS overwrite what was printed, bidi
overrides make a line read in another order than it is written, and a line break splits one
`path:line:col:` message into two. `for_terminal` writes every such character as a visible escape
(`\\x1b`, `\\u202e`), so a message shows what arrived, inert, on one line.
"""

from __future__ import annotations

import unicodedata

from pipeline.text.linebreaks import LINE_BREAKS

# Bidi embeddings, overrides and isolates, and the marks (Trojan Source, CVE-2021-42574).
BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _unsafe(ch: str) -> bool:
    return ch in BIDI or ch in LINE_BREAKS or unicodedata.category(ch) in ("Cc", "Cs")


def _escaped(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def for_terminal(text: str) -> str:
    """`text` with control characters (C0, DEL, C1: so every ESC sequence), line breaks, bidi controls and
    lone surrogates (undecodable file names) written as escapes; a backslash before an escape-looking
    sequence stays as it is, since only what was unsafe is changed."""
    if text.isprintable() and not any(ch in BIDI for ch in text):
        return text
    return "".join(_escaped(ch) if _unsafe(ch) else ch for ch in text)
