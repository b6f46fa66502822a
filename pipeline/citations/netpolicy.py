"""Which addresses the audit may fetch: http(s) only, no credentials, valid ports, public IPs unless allowed.

Cited addresses come from contributors, and an audit runs unattended: without this, a source (or a
redirect from a page it cites) could make the audit read a cloud metadata service, a router's admin page
or another service on the build machine's loopback interface (server-side request forgery). The check is
made twice: on the URL of every hop (`check_url`) and on the IP address actually connected
(`check_address`, called by `pipeline.citations.safeconn` for every new connection), so a host name that
resolves to a private address does not pass.

Allowing is explicit: an `AllowList` entry `HOST` allows that host name or IP on any port, `HOST:PORT` on
that port only (`--allow-host`, and `allow_hosts` in the project's `pipeline.toml`).
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from urllib.parse import urlsplit

SCHEMES = ("http", "https")


class Refused(Exception):
    """A hop the policy refuses; the message says why in a sentence (it never repeats credentials)."""


@dataclass(frozen=True)
class AllowList:
    """Hosts the audit may reach although they are not public: `{(host, port or None)}`."""

    entries: frozenset[tuple[str, int | None]] = frozenset()

    @classmethod
    def parse(cls, specs: list[str] | tuple[str, ...]) -> AllowList:
        return cls(frozenset(parse_allow(spec) for spec in specs))

    def allows(self, names: tuple[str, ...], port: int) -> bool:
        return any(host in names and (allowed is None or allowed == port) for host, allowed in self.entries)


def parse_allow(spec: str) -> tuple[str, int | None]:
    """`HOST`, `HOST:PORT`, `[IPv6]` or `[IPv6]:PORT`; ValueError with a sentence otherwise."""
    text = spec.strip().lower()
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port_text = rest[1:] if rest.startswith(":") else None
    elif text.count(":") == 1:
        host, port_text = text.split(":")
    else:
        host, port_text = text, None
    if not host or any(c.isspace() or c in "/@?#" for c in host):
        raise ValueError(f"'{spec}' is not a host name or address; expected HOST or HOST:PORT")
    return host, _port(port_text, spec) if port_text is not None else None


def _port(text: str, spec: str) -> int:
    if not text.isdigit() or not 0 < int(text) < 65536:
        raise ValueError(f"'{spec}': the port must be a number from 1 to 65535")
    return int(text)


def check_url(url: str) -> tuple[str, int]:
    """The (host, port) an http(s) URL goes to; `Refused` for other schemes, credentials or a bad port."""
    parts = urlsplit(url)
    if parts.scheme.lower() not in SCHEMES:
        raise Refused(f"only http and https addresses are fetched, not '{parts.scheme or 'a relative address'}'")
    if "@" in parts.netloc:
        raise Refused("the address holds credentials (user:password@); they are never sent")
    try:
        port = parts.port or (443 if parts.scheme.lower() == "https" else 80)
    except ValueError:
        raise Refused("the address has an invalid port (expected 1-65535)") from None
    if not parts.hostname or port == 0:
        raise Refused("the address has no host" if not parts.hostname else "the address has an invalid port (expected 1-65535)")
    return parts.hostname.lower(), port


def non_public_reason(ip: str) -> str | None:
    """Why this IP is not a public internet address, or None when it is one."""
    address = ipaddress.ip_address(ip.split("%")[0])
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        address = address.ipv4_mapped
    for kind in ("unspecified", "loopback", "link_local", "multicast", "private", "reserved"):
        if getattr(address, f"is_{kind}"):
            return f"{address} is a {kind.replace('_', '-')} address"
    return None if address.is_global else f"{address} is not a public address"


def check_address(host: str, port: int, ip: str, allow: AllowList) -> None:
    """`Refused` when `ip` (what `host` resolved to) is not public and neither the host nor the IP is allowed."""
    reason = non_public_reason(ip)
    if reason and not allow.allows((host.lower().strip("[]"), ip.split("%")[0]), port):
        raise Refused(f"{reason} (from {host}:{port}); pass --allow-host {host}:{port} to fetch it")
