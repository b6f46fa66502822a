"""A page's `<meta http-equiv="refresh" content="0; url=...">`: the redirect some sites make in HTML.

The fetcher follows it as one more redirect hop, under the same checks as an HTTP redirect (scheme,
credentials, port, the address connected). Only the start of the page is looked at: the tag belongs in
the head, and a hostile page must not make this scan long.
"""

from __future__ import annotations

import html
import re

HEAD_BYTES = 64 * 1024
_META = re.compile(rb"<meta\b[^>]{0,2000}>", re.IGNORECASE)
_ATTR = re.compile(rb"""([a-z-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.IGNORECASE)
_TARGET = re.compile(r"^\s*[\d.]*\s*[;,]?\s*(?:url\s*=\s*)?['\"]?([^'\"]*)['\"]?\s*$", re.IGNORECASE)


def meta_refresh(body: bytes) -> str | None:
    """The address a meta refresh in the page's head points to (as written, maybe relative), or None."""
    for tag in _META.finditer(body[:HEAD_BYTES]):
        attrs = {m[1].lower(): (m[2] or m[3] or m[4] or b"") for m in _ATTR.finditer(tag[0])}
        if attrs.get(b"http-equiv", b"").lower() != b"refresh":
            continue
        match = _TARGET.match(html.unescape(attrs.get(b"content", b"").decode("latin-1")))
        target = match[1].strip() if match else ""
        return target or None
    return None
