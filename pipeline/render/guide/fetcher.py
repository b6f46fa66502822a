"""The only way weasyprint may load anything while it renders the study guide.

weasyprint fetches every stylesheet, image and font an HTML document names. The guide's HTML is
built from source text, so the fetcher is the last line of defence: it serves files under
`templates/` and the formulas the pipeline itself drew this build (`pipeline.text.formulas.DRAWINGS`,
data: addresses of SVG), the exam's images the loader checked (`serving`: their `media/<path>` addresses,
resolved in templates/guide/, are answered from the view's bytes, never from the disk), and refuses everything else (other local files, http(s), any other data: URI),
so that no source, however it got markup into the page, can make the PDF read a local file or reach the
network.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

from weasyprint.urls import URLFetcher, URLFetcherResponse

from pipeline.paths import TEMPLATES
from pipeline.text.formulas import DRAWINGS

MEDIA: dict[str, tuple[bytes, str]] = {}  # address -> (bytes, media type): the images of the guide being printed


@contextlib.contextmanager
def serving(files: Iterable, base: Path) -> Iterator[None]:
    """While printing, answer `media/<path>` (resolved in `base`) with each MediaFile's bytes."""
    for file in files:
        address = (base / "media").as_uri() + "/" + quote(file.path)
        MEDIA[unquote(address)] = (file.media_bytes, file.media_type)
    try:
        yield
    finally:
        MEDIA.clear()


class RefusedFetch(ValueError):
    """A resource outside the project's templates was asked for; weasyprint logs it and skips it."""


class TemplateOnlyFetcher(URLFetcher):
    """A weasyprint URL fetcher confined to one folder (a URLFetcher subclass, as weasyprint 70 expects)."""

    def __init__(self, root: Path = TEMPLATES) -> None:
        super().__init__(allowed_protocols=("file",))
        self.root = root.resolve()

    def fetch(self, url: str, headers: dict | None = None) -> URLFetcherResponse:
        if url in DRAWINGS:
            return URLFetcherResponse(url, DRAWINGS[url], {"Content-Type": "image/svg+xml"})
        if (found := MEDIA.get(unquote(url))) is not None:
            return URLFetcherResponse(url, found[0], {"Content-Type": found[1]})
        path = self.allowed_path(url)
        return URLFetcherResponse(path.as_uri(), path.read_bytes(), {"Content-Type": _media_type(path)})

    def allowed_path(self, url: str) -> Path:
        """The file `url` names, when it is a file under the root; else RefusedFetch."""
        parts = urlsplit(url)
        if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
            raise RefusedFetch(f"refused {url[:80]!r}: the study guide loads only its own template files")
        path = Path(unquote(parts.path)).resolve()  # resolve: `..` and symlinks cannot lead out
        if not path.is_relative_to(self.root) or not path.is_file():
            raise RefusedFetch(f"refused {url[:80]!r}: not a file under {self.root}")
        return path


def _media_type(path: Path) -> str:
    # weasyprint reads a stylesheet only when it is served as text/css
    return {".css": "text/css", ".woff2": "font/woff2", ".ttf": "font/ttf", ".svg": "image/svg+xml"}.get(path.suffix, "application/octet-stream")
