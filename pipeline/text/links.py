"""Which link targets written in a source may become links in an output: http, https and mailto only.

An allow list, not a deny list: `file:`, `smb:`, `ms-msdt:`, `javascript:`, paths (`/etc/passwd`,
`../notes.md`) and protocol-relative `//host` addresses are all refused, so no output ever links to the
build machine's files or hands a reader's system an address it would open in another program.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from pipeline.vocabulary.fields import _absolute_http_url

SCHEMES = ("http", "https", "mailto")


def allowed(href: str) -> bool:
    """True for an absolute http(s) address to a host (no credentials) or a mailto: address."""
    scheme = urlsplit(href).scheme.lower()
    if scheme == "mailto":
        return len(href) > len("mailto:") and not any(ord(c) < 32 for c in href)
    try:
        _absolute_http_url(href)
    except ValueError:
        return False
    return scheme in SCHEMES
