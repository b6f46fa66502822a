"""The PDF study guide: `OUT/<exam-id>/study-guide.pdf`, printed by weasyprint from templates/guide/.

`render` is the renderer registered in pipeline/render/__init__.py: it computes the guide (guide/context),
fills in the templates (guide/html) and hands the HTML to weasyprint (a large guide chunk by chunk, see
guide/paged.py) with a fetcher that serves the template folder and nothing else (guide/fetcher). The PDF's
dates come from the HTML's metadata, which come from the build's source date, so two builds of the same
sources give the same bytes.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import weasyprint

from pipeline.render.guide import chunks, paged
from pipeline.render.guide.context import build_guide
from pipeline.render.guide.fetcher import TemplateOnlyFetcher, serving
from pipeline.render.guide.html import GUIDE_TEMPLATES, render_html

if TYPE_CHECKING:  # pipeline.render imports this module to register it
    from pipeline.render import RenderContext

FILENAME = "study-guide.pdf"


def guide_html(ctx: RenderContext) -> str:
    """The HTML handed to weasyprint (what the golden tests compare)."""
    return render_html(build_guide(ctx))


def html_to_pdf(html: str) -> bytes:
    """weasyprint alone: relative links resolve in templates/guide/, and nothing outside templates/ loads."""
    document = weasyprint.HTML(string=html, base_url=GUIDE_TEMPLATES.as_uri() + "/", url_fetcher=TemplateOnlyFetcher())
    return document.write_pdf()


def render(ctx: RenderContext, chunk_items: int = chunks.CHUNK_ITEMS) -> list[Path]:
    """A guide of more than `chunk_items` items is laid out in chunks (guide/paged.py), a smaller one whole."""
    path = ctx.out_dir / FILENAME
    guide = build_guide(ctx)
    with serving(ctx.view.media, GUIDE_TEMPLATES):  # the figures, from the view's bytes
        if chunks.size(guide) <= chunk_items:
            path.write_bytes(html_to_pdf(render_html(guide)))
        else:
            path.write_bytes(paged.write_pdf(guide, chunk_items))
    return [path]
