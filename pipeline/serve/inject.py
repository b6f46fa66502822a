"""The live-reload script and its banner style, added to a page as `serve` sends it.

Only the served copy changes: the built site on disk never holds the script. The site's
Content-Security-Policy allows scripts and styles from its own origin, which the injected files are; the
one addition is `connect-src 'self'`, for the event stream and the status the script reads.
"""

from __future__ import annotations

import re
from html import escape, unescape

SCRIPT = "/__serve/livereload.js"
STYLE = "/__serve/livereload.css"
_CSP = re.compile(r'(<meta\s+http-equiv="Content-Security-Policy"\s+content=")([^"]*)(")', re.I)


def inject(html: str, build: int) -> str:
    """`html` with the reload script and style before `</head>`, and its CSP allowing connections to 'self'."""
    tags = f'<link rel="stylesheet" href="{STYLE}">\n<script src="{SCRIPT}" data-build="{build}" defer></script>\n'
    html = _CSP.sub(lambda m: m[1] + escape(_with_connect(unescape(m[2]))) + m[3], html, count=1)
    at = html.lower().find("</head>")
    return html[:at] + tags + html[at:] if at >= 0 else tags + html


def _with_connect(policy: str) -> str:
    if "connect-src" in policy:
        return re.sub(r"connect-src[^;]*", "connect-src 'self'", policy)
    return f"{policy.strip().removesuffix(';')}; connect-src 'self'"


def placeholder(title: str) -> str:
    """A page for when there is no site yet (the first build failed): the banner says why."""
    return ("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Not built yet</title></head>\n"
            f"<body><main><h1>{escape(title)}</h1><p>The site is not built yet; fix the problems shown above and save.</p></main></body></html>\n")
