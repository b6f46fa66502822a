"""Addresses that come from outside (a redirect's `Location`, a page's meta refresh, an archive's answer):
parsed, normalised and checked before anything stores, prints, follows or writes them.

A cited site, or anything on the way, chooses these bytes. Taken raw, a `Location` can hold an ESC
sequence for the terminal that prints it, a line break (NEL, LS, PS too) or `, key: value` that becomes
new YAML when `--fix-moves` writes it into a source, a space or ` #` that cuts it there, a 3,000-byte
path the schema refuses, or UTF-8 that `http.client` decoded as Latin-1 (mojibake). So each one is:

1. taken back to the bytes that were sent (header values arrive Latin-1 decoded) and read as UTF-8;
2. refused when it holds a control character (C0, DEL, C1) or a line break of any kind: no browser
   sends those, and no page needs them;
3. resolved against the address it came from, the host IDNA-encoded (as `requests` does), every
   character outside RFC 3986 percent-encoded as UTF-8 (a space is `%20`), escapes of unreserved
   characters decoded and hex digits upper-cased (RFC 3986 section 6.2.2), so one address has one form;
4. checked by the schema's own rule for an address an author writes (http or https, a host, no
   credentials, a valid port, at most 2,000 characters).

`Refused` (a sentence, never the raw text) when any step fails; the caller makes it a `blocked` status.
"""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import urljoin, urlsplit, urlunsplit

import idna

from pipeline.citations.netpolicy import Refused, check_url
from pipeline.text.linebreaks import LINE_BREAKS
from pipeline.vocabulary.fields import PARAGRAPH, _absolute_http_url

MAX_LENGTH = PARAGRAPH  # schema.models.HttpUrl: what a source may hold
_UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
_PCHAR = _UNRESERVED + "!$&'()*+,;=" + ":@"  # RFC 3986 pchar: what a path segment may hold unescaped
_IN_PATH, _IN_QUERY = frozenset(_PCHAR + "/"), frozenset(_PCHAR + "/?")  # a query and a fragment also take `?`
_ESCAPE = re.compile(r"%([0-9A-Fa-f]{2})")
_HOST = re.compile(r"[a-z0-9_.-]+")
_IPV6 = re.compile(r"\[[0-9A-Fa-f:.]+\]")


def _sent(raw: str) -> str:
    """The text as sent: header values come Latin-1 decoded, so their bytes are taken back and read as
    UTF-8; text that is not UTF-8 that way (already Unicode, or Latin-1 bytes) stays as it is."""
    try:
        return raw.encode("latin-1").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return raw


def _refuse_controls(text: str) -> None:
    for ch in text:
        if ch in LINE_BREAKS or unicodedata.category(ch) == "Cc":
            raise Refused(f"the address holds the control character U+{ord(ch):04X}; no page needs one, so it is not followed")


def _encode(part: str, kept: frozenset[str] = _IN_PATH) -> str:
    """`part` with every character RFC 3986 does not allow there percent-encoded (UTF-8), `%` kept only
    before two hex digits."""
    out = []
    for i, ch in enumerate(part):
        if ch in kept or (ch == "%" and _ESCAPE.match(part, i)):
            out.append(ch)
        else:
            out.extend(f"%{b:02X}" for b in ch.encode("utf-8", errors="surrogateescape"))
    return _ESCAPE.sub(_normal_escape, "".join(out))


def _normal_escape(match: re.Match[str]) -> str:
    char = chr(int(match[1], 16))
    return char if char in _UNRESERVED else f"%{match[1].upper()}"


def _host(netloc: str) -> str:
    """The netloc with its host IDNA-encoded, lower case; `Refused` for credentials or a host IDNA refuses."""
    if "@" in netloc:
        raise Refused("the address holds credentials (user:password@); they are never sent")
    host, colon, port = netloc.rpartition(":") if not netloc.endswith("]") and ":" in netloc else (netloc, "", "")
    if host.startswith("["):
        if not _IPV6.fullmatch(host):
            raise Refused("the host is not a valid IPv6 address in brackets")
        return f"{host.lower()}{colon}{_encode(port)}"
    try:
        ascii_host = host.lower() if host.isascii() else idna.encode(host, uts46=True).decode("ascii")
    except idna.IDNAError:
        raise Refused("the host name is not a valid internationalised domain name") from None
    if not _HOST.fullmatch(ascii_host):
        raise Refused("the host name holds characters no host name has")
    return f"{ascii_host}{colon}{_encode(port)}"


def canonical(raw: str, base: str = "") -> str:
    """`raw` resolved against `base`, in its one normal form; `Refused` with a reason when it cannot be
    one or breaks a rule an author's address must keep."""
    text = _sent(raw).strip(" ")
    _refuse_controls(text)
    try:
        parts = urlsplit(text)
    except ValueError:
        raise Refused("the address cannot be parsed (a bracket left open?)") from None
    netloc = _host(parts.netloc) if parts.netloc else ""
    reference = urlunsplit((parts.scheme.lower(), netloc, _encode(parts.path), _encode(parts.query, _IN_QUERY), _encode(parts.fragment, _IN_QUERY)))
    if text.startswith("//") and not reference.startswith("//"):  # urlunsplit drops the // of an empty host
        raise Refused("the address has no host")
    url = urljoin(base, reference) if base else reference
    if len(url) > MAX_LENGTH:
        raise Refused(f"the address is {len(url):,} characters long, over the {MAX_LENGTH:,} a source may hold")
    check_url(url)  # the fetcher's own sentences for a scheme, credentials or a port it refuses
    try:
        return _absolute_http_url(url)
    except ValueError as exc:
        raise Refused(f"the address {exc}") from None


def same_page(a: str, b: str) -> bool:
    """Whether two addresses name one page, as an archive files it: the same host (a leading `www.` aside),
    port, path and query; the scheme (an archive keeps http and https captures alike) and fragment aside."""
    def key(url: str) -> tuple[str, int | None, str, str]:
        parts = urlsplit(canonical(url))
        host = (parts.hostname or "").removeprefix("www.")
        port = parts.port if parts.port not in (80, 443) else None
        return host, port, parts.path or "/", parts.query

    try:
        return key(a) == key(b)
    except Refused:
        return False
