"""An on-disk HTTP cache for conditional requests, kept under `build/` (outputs only, never committed).

For each page fetched with an `ETag` or `Last-Modified`, the body and those validators are kept; the
next audit sends `If-None-Match` / `If-Modified-Since` and, when the server answers 304, reads the
body from here. An audit always asks the server (it must say what the page holds today), so there
is no freshness logic: only revalidation. (CacheControl would do this too, but is not installed and
brings its own freshness rules; this is all the audit needs, in one small file.)

One file per URL (`<sha256 of the URL>.page`: the metadata as one line of JSON, then the body), written
atomically (a temporary file renamed over it), so concurrent fetches of different URLs never clash; one file
and not a pair, because creating and renaming files is most of what keeping a copy costs (keeping a copy 0.118 ->
0.074 ms of CPU, reading one 0.037 -> 0.021 ms, measured alone; issue 36, audit_cpu_share). Not flushed to disk (fsync): a
cache is worth less than the CPU an audit spent making every copy durable. A copy a crash left torn is never
used: the metadata keeps the body's SHA-256, and a body that does not match it (or a copy written before the
hash was kept, or in the older pair of files) is no copy, so the page is fetched in full.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import threading
from dataclasses import asdict, dataclass, replace
from pathlib import Path


@dataclass(frozen=True)
class CachedPage:
    url: str
    final_url: str
    content_type: str | None
    encoding: str | None
    etag: str | None
    last_modified: str | None
    body_sha256: str | None = None  # of the body kept beside it: a torn copy is never used

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
        self._made = False  # the folder exists (made at the first copy kept)

    def _path(self, url: str) -> Path:
        return self.folder / f"{hashlib.sha256(url.encode('utf-8')).hexdigest()}.page"

    def _read(self, url: str) -> tuple[CachedPage, bytes] | None:
        """The copy kept for `url` when it is whole: its metadata line and the body that line describes."""
        try:
            meta, _, body = self._path(url).read_bytes().partition(b"\n")
            page = CachedPage(**json.loads(meta))
        except (OSError, ValueError, TypeError):
            return None  # no copy, or a damaged one: fetch the page in full
        if page.url != url or not page.body_sha256 or hashlib.sha256(body).hexdigest() != page.body_sha256:
            return None
        return page, body

    def get(self, url: str) -> CachedPage | None:
        copy = self._read(url)
        return copy[0] if copy else None

    def body(self, url: str) -> bytes | None:
        copy = self._read(url)
        return copy[1] if copy else None

    def put(self, page: CachedPage, body: bytes) -> None:
        """Keep `body` for `page.url`; only pages with a validator are worth keeping."""
        if not (page.etag or page.last_modified):
            return
        if not self._made:
            self.folder.mkdir(parents=True, exist_ok=True)
            self._made = True
        page = replace(page, body_sha256=hashlib.sha256(body).hexdigest())
        meta = json.dumps(asdict(page), sort_keys=True).encode("utf-8")  # one line: json escapes line breaks
        _replace(self._path(page.url), meta + b"\n" + body)


def _replace(path: Path, data: bytes) -> None:
    """Write `path` through a temporary file renamed over it: readers see the old copy or the new one. The
    temporary file is this process's and thread's, so two audits sharing a cache never write into one."""
    temp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        temp.write_bytes(data)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise
