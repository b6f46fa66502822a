"""The study guide's HTML: `templates/guide/*.html.j2` filled in from a `Guide`.

Escaping happens here and only here. Jinja autoescapes every value; the one way source text becomes
markup is the `markdown` filter, which goes through pipeline/text/markdown.py (raw HTML off, images off)
and marks its result safe. Anything else a source contains, `<script>` included, prints as text.
"""

from __future__ import annotations

from functools import lru_cache

import jinja2
from markupsafe import Markup

from pipeline.practice import answers as fill_in
from pipeline.render.guide import appendix, book
from pipeline.render.guide.callouts import callouts
from pipeline.render.guide.context import Guide
from pipeline.render.guide.fetcher import TEMPLATES
from pipeline.text import cloze
from pipeline.text.images import first_figure_ids
from pipeline.text.markdown import to_html, to_inline_html

GUIDE_TEMPLATES = TEMPLATES / "guide"
STYLESHEET = GUIDE_TEMPLATES / "guide.css"


MATH = "svg"  # weasyprint has no MathML: formulas are typeset to SVG (pipeline/text/formulas.py)


def markdown(text: str) -> Markup:
    return Markup(to_html(text, math=MATH))  # safe by construction: pipeline/text/markdown.py escapes raw HTML


def markdown_inline(text: str) -> Markup:
    return Markup(to_inline_html(text, math=MATH))  # likewise


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(GUIDE_TEMPLATES),
        autoescape=True,  # every template, whatever its name: all of them are HTML
        undefined=jinja2.StrictUndefined,  # a misspelt field is an error, not an empty string in print
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters.update(markdown=markdown, inline=markdown_inline, strip_cloze=cloze.strip)
    env.globals.update(
        callouts=callouts, status_mark=book.status_mark, quiet_statuses=book.QUIET,
        essential=book.essential, term_anchor=appendix.term_anchor, lab_anchor=appendix.lab_anchor, answer_lines=book.answer_lines,
        wrap_code=book.wrap_code, code_wraps=book.code_wraps, code_size=book.code_size, fill_in_rule=fill_in.RULE,
        page_attr=lambda anchor: Markup(""),  # the whole guide: weasyprint finds every page (see guide/paged.py)
    )
    return env


def render_html(guide: Guide) -> str:
    """The complete HTML document weasyprint prints; its stylesheet is linked relative to templates/guide/."""
    return first_figure_ids(environment().get_template("guide.html.j2").render(guide=guide, stylesheet=STYLESHEET.name))
