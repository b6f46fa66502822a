"""The site's HTML: `templates/site/*.html.j2` filled in from the exam view.

Escaping happens here and only here. Jinja autoescapes every value; source Markdown becomes markup only
through pipeline/text/markdown.py (raw HTML shown as text, images off), and its links then pass the allow
list (links.py). Anything else a source holds, `<script>` included, prints as text.
"""

from __future__ import annotations

from functools import lru_cache

import jinja2
from markupsafe import Markup

from pipeline.paths import TEMPLATES
from pipeline.render.feedback import report_url
from pipeline.render.site import paths
from pipeline.render.site.data import self_graded
from pipeline.render.site.link_filter import allowed, keep_allowed_links
from pipeline.text import cloze
from pipeline.text.images import first_figure_ids
from pipeline.text.markdown import to_html, to_inline_html
from pipeline.text.plaintext import to_plain

SITE_TEMPLATES = TEMPLATES / "site"

# Only the site's own files: no inline script or style, no other origin, no fetch(), no plugins, no <base>.
CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'"


def markdown(text: str) -> Markup:
    return Markup(focusable_tables(keep_allowed_links(to_html(text))))  # safe: pipeline/text/markdown.py escapes raw HTML


def focusable_tables(markup: str) -> str:
    """A source's table or display formula scrolls sideways on a phone (site.css), so it takes the focus:
    a keyboard user can scroll it too (WCAG 2.1.1; axe's scrollable-region-focusable)."""
    markup = markup.replace('<table class="data">', '<table class="data" tabindex="0">')
    return markup.replace('<div class="formula display">', '<div class="formula display" tabindex="0">')


def markdown_inline(text: str) -> Markup:
    return Markup(keep_allowed_links(to_inline_html(text)))


def speakers(citations) -> list[tuple[str, list]]:
    """Quotes grouped by who says them ("What NVIDIA says"), in the order they are cited."""
    groups: dict[str, list] = {}
    for citation in citations:
        groups.setdefault(citation.speaker, []).append(citation)
    return list(groups.items())


def _link(url: str) -> str:
    """A source address for an href: only the allow list's schemes (the schema already requires http(s))."""
    if not allowed(url):
        raise ValueError(f"refusing to link {url[:80]!r}: not http, https or mailto")
    return url


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(SITE_TEMPLATES),
        autoescape=True,  # every template is HTML, whatever its name
        undefined=jinja2.StrictUndefined,  # a misspelt field fails the build instead of printing nothing
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters.update(markdown=markdown, inline=markdown_inline, strip_cloze=cloze.strip, plain=to_plain, link=_link,
                       safe_id=paths.safe)
    env.globals.update(paths=paths, csp=CSP, speakers=speakers, self_graded=self_graded, report_url=report_url)
    return env


def render_page(template: str, **values) -> str:
    return first_figure_ids(environment().get_template(template).render(**values))
