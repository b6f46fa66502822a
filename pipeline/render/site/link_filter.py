"""The link allow list in the site: an address is a link only when the one allow list of every output
(`pipeline.text.links.allowed`: an absolute http(s) address to a host, or mailto) accepts it.

Markdown from the sources may write `[x](ftp://...)` or a relative `[x](notes.html)`; markdown-it already
drops script and file addresses, and this module turns every other non-allowed `href` into plain text (the
`<a>` keeps its words and loses its address), so the site links only to what the allow list permits.
"""

from __future__ import annotations

import html
import re

from pipeline.text import links

_HREF = re.compile(r'<a href="([^"]*)"')  # markdown-it writes every link exactly like this


def allowed(url: str) -> bool:
    """`url` as written in an attribute (entities decoded) passes the one allow list."""
    return links.allowed(html.unescape(url))


def keep_allowed_links(markup: str) -> str:
    """`markup` with the href of every link outside the allow list removed."""
    return _HREF.sub(lambda m: m.group(0) if allowed(m.group(1)) else "<a", markup)
