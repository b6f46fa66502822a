"""Markdown from the sources to plain text, for places that show no markup: question titles in an LMS
list, the stems the near-duplicate check compares.

The text is taken from markdown-it's tokens rather than by deleting `*` and backticks with regular
expressions, so `snake_case`, `2 * 3` and code spans come out as a reader sees them.
"""

from __future__ import annotations

import textwrap
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.dollarmath import dollarmath_plugin

_TEXT_TOKENS = ("text", "code_inline", "code_block", "fence", "html_inline", "html_block", "math_inline", "math_inline_double", "math_block")
_BREAKS = ("softbreak", "hardbreak", "paragraph_close", "list_item_close", "heading_close", "th_close", "td_close")


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    # The same dialect as pipeline.text.markdown, so plain text and HTML read the source alike.
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable("table")
    md.use(dollarmath_plugin, allow_space=False, allow_digits=False, allow_labels=False, double_inline=True)
    return md  # a formula reads as its LaTeX source


def _flatten(tokens: list[Token]) -> list[Token]:
    flat: list[Token] = []
    for token in tokens:
        flat.extend(_flatten(token.children) if token.children else [token])
    return flat


@lru_cache(maxsize=1 << 17)  # once per text per build, like pipeline.text.markdown's renderings
def to_plain(markdown: str) -> str:
    """The text a reader sees, markup removed, whitespace (line breaks too) collapsed to single spaces."""
    parts = []
    for token in _flatten(_parser().parse(markdown)):
        if token.type in _TEXT_TOKENS:
            parts.append(token.content)
        elif token.type in _BREAKS:
            parts.append(" ")
    return " ".join("".join(parts).split())


def shorten(text: str, width: int = 90) -> str:
    """`text` cut at a word boundary to at most `width` characters, an ellipsis marking the cut."""
    return textwrap.shorten(text, width=width, placeholder=" …")
