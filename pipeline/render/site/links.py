"""The link allow list: an address in the site is a link only when it is http, https or mailto.

Markdown from the sources may write `[x](ftp://...)` or a relative `[x](notes.html)`; markdown-it already
drops script and file addresses, and this module turns every other non-allowed `href` into plain text (the
`<a>` keeps its words and loses its address), so the site links only to what the allow list permits.
"""

from __future__ import annotations

import html
import re

ALLOWED_SCHEMES = ("http://", "https://", "mailto:")
_HREF = re.compile(r'<a href="([^"]*)"')  # markdown-it writes every link exactly like this


def allowed(url: str) -> bool:
    return html.unescape(url).strip().lower().startswith(ALLOWED_SCHEMES)


def keep_allowed_links(markup: str) -> str:
    """`markup` with the href of every link outside the allow list removed."""
    return _HREF.sub(lambda m: m.group(0) if allowed(m.group(1)) else "<a", markup)
