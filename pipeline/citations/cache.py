"""An on-disk HTTP cache for conditional requests, kept under `build/` (outputs only, never committed).

For each page fetched with an `ETag` or `Last-Modified`, the body and those validators are kept; the
next audit sends `If-None-Match` / `If-Modified-Since` and, when the server answers 304, reads the
body from here. An audit always asks the server (it must say what the page holds today), so there
is no freshness logic: only revalidation. (CacheControl would do this too, but is not installed and
brings its own freshness rules; this is all the audit needs, in one small file.)

One file pair per URL, each written atomically, so concurrent fetches of different URLs never clash.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from pathlib import Path

from pipeline.publish.atomic import write_atomic


@dataclass(frozen=True)
class CachedPage:
    url: str
    final_url: str
    content_type: str | None
    encoding: str | None
    etag: str | None
    last_modified: str | None

    def validators(self) -> dict[str, str]:
        """The headers that make a request conditional on this copy."""
        headers = {}
        if self.etag:
            headers["If-None-Match"] = self.etag
        if self.last_modified:
            headers["If-Modified-Since"] = self.last_modified
        return headers



class HttpCache:
    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _paths(self, url: str) -> tuple[Path, Path]:
        key = hashlib.sha256(url.encode("utf-8")).hexdigest()
        return self.folder / f"{key}.json", self.folder / f"{key}.body"

    def get(self, url: str) -> CachedPage | None:
        meta, body = self._paths(url)
        try:
            page = CachedPage(**json.loads(meta.read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError):
            return None  # no copy, or a damaged one: fetch the page in full
        return page if body.is_file() and page.url == url else None

    def body(self, url: str) -> bytes | None:
        try:
            return self._paths(url)[1].read_bytes()
        except OSError:
            return None

    def put(self, page: CachedPage, body: bytes) -> None:
        """Keep `body` for `page.url`; only pages with a validator are worth keeping."""
        if not (page.etag or page.last_modified):
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        meta, body_path = self._paths(page.url)
        write_atomic(body_path, body)  # body first: a metadata file always has its body
        write_atomic(meta, json.dumps(asdict(page), sort_keys=True).encode("utf-8"))
