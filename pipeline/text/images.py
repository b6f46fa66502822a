"""Images written in Markdown (`![alt](path "caption")`): found in a source, pointed at the exam's files,
and rendered as each output names its copy of the file.

A source writes an image's path relative to the YAML file that holds it. The loader (`pipeline.load.media`)
checks the file and rewrites the address to `media:<path in the exam folder>`, adding `#figure-<objective>-<n>`
when the image stands alone in its paragraph (a figure, numbered per objective in the order of its file):
from then on a text says which file it shows wherever it is rendered, without knowing the YAML file it came
from, and every output renders the same text alike. Only such `media:` addresses become images; anything else
shows its alt text (an image the loader did not check never reaches an output).

Each output names its copies its own way (`HREF`): `relative` puts them under `media/` beside the page, the
package or bank.json (site, bank, guide); `parent` is `../media/` (QTI 2.1's items sit in `items/`); `flat`
is one file name with no folder (an Anki collection's media folder is flat); `pluginfile` is Moodle's
`@@PLUGINFILE@@/<flat name>`; `canvas` is Canvas's `$IMS-CC-FILEBASE$/media/<path>` (the package's
web_resources/ folder).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape
from urllib.parse import unquote

from markdown_it.rules_core import StateCore

SCHEME = "media:"
FIGURE = "#figure-"
MEDIA = ("relative", "parent", "flat", "pluginfile", "canvas")  # how an output names its copies (module docstring)
XML = frozenset({"parent"})  # QTI 2.1's items are XML with XHTML's elements: <img/> closed, a figure a <div>
FOLDER = "media"

# `![alt](destination "title")` as CommonMark writes an inline image (alt may hold escaped brackets).
INLINE_IMAGE = re.compile(
    r"!\[(?P<alt>(?:[^\[\]\\]|\\.)*)\]\([ \t]*(?P<dest><[^<>\n]*>|[^\s()<>]+)"
    r"(?P<title>[ \t\n]+(?:\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|\((?:[^()\\]|\\.)*\)))?[ \t\n]*\)")


@dataclass(frozen=True)
class Figure:
    number: str  # "6.1-2"

    @property
    def anchor(self) -> str:
        return anchor(self.number)

    @property
    def label(self) -> str:
        return f"Figure {self.number}"


def anchor(number: str) -> str:
    """A figure's HTML id: `6.1-2` -> `figure-6-1-2` (no dot, which would read as a class in a selector)."""
    return "figure-" + number.replace(".", "-")


def flat_name(path: str) -> str:
    """The one-folder name of an exam's file: `6-perf/figures/bits.svg` -> `6-perf--figures--bits.svg`.
    The loader refuses two files whose flat names meet, so the name stays one-to-one within an exam."""
    return path.replace("/", "--")


def hashed_name(name: str, sha256: str) -> str:
    """`figures/bits.svg` of sha256 ab12... -> `figures/bits-ab12....svg`: a copy named by its content, so a
    changed image is a new address (a browser's or Anki's cached copy of the old bytes is never shown for it)."""
    stem, dot, ending = name.rpartition(".")
    return f"{stem}-{sha256[:12]}{dot}{ending}" if dot else f"{name}-{sha256[:12]}"


def href(path: str, media: str) -> str:
    """Where an output's page finds its copy of the exam's file `path`."""
    if media == "flat":
        return flat_name(path)
    if media == "pluginfile":
        return "@@PLUGINFILE@@/" + flat_name(path)
    if media == "parent":
        return f"../{FOLDER}/{path}"
    if media == "canvas":
        return f"$IMS-CC-FILEBASE$/{FOLDER}/{path}"
    return f"{FOLDER}/{path}"


def shown_in(html: str, files, media: str) -> list:
    """The files (MediaFile) whose address in `media`'s naming `html` shows."""
    return [f for f in files if f'src="{escape(href(f.path, media))}"' in html]


def split(src: str) -> tuple[str, Figure | None] | None:
    """A rendered token's `media:` address as (path in the exam folder, its figure); None for any other."""
    src = unquote(src)
    if not src.startswith(SCHEME):
        return None
    path, _, fragment = src[len(SCHEME):].partition("#")
    number = fragment[len(FIGURE) - 1:] if ("#" + fragment).startswith(FIGURE) else ""
    return path, (Figure(number) if number else None)


def figures(state: StateCore, tag: str = "figure") -> None:
    """A core rule: a paragraph holding one numbered image and nothing else becomes a <figure> (`tag`)."""
    tokens = state.tokens
    for i in range(len(tokens) - 2):
        opening, inline, closing = tokens[i:i + 3]
        if opening.type != "paragraph_open" or closing.type != "paragraph_close" or inline.type != "inline":
            continue
        children = [c for c in inline.children or [] if not (c.type == "text" and not c.content.strip()) and c.type != "softbreak"]
        if len(children) != 1 or children[0].type != "image":
            continue
        found = split(str(children[0].attrGet("src") or ""))
        if found is None or found[1] is None:
            continue
        opening.tag = closing.tag = tag
        opening.attrSet("id", found[1].anchor)
        opening.attrSet("class", "figure")
        children[0].meta["figure"] = found[1]


def render_image(media: str):
    """The markdown-it render rule of `image` for one way of naming copies (`MEDIA`)."""
    def rule(self, tokens, idx, options, env):
        token = tokens[idx]
        alt = self.renderInlineAsText(token.children or [], options, env)
        found = split(str(token.attrGet("src") or ""))
        if found is None:
            return escape(alt)  # not checked by the loader: never an address an output would fetch
        path, _ = found
        img = f'<img src="{escape(href(path, media))}" alt="{escape(alt)}"{" /" if media in XML else ""}>'
        figure: Figure | None = token.meta.get("figure") if token.meta else None
        if figure is None:
            return img
        title = str(token.attrGet("title") or "")
        caption = f'<span class="figure-label">{figure.label}</span>' + (f" {escape(title)}" if title else "")
        return f'{img}<div class="figcaption">{caption}</div>' if media in XML else f"{img}<figcaption>{caption}</figcaption>"
    return rule


_FIGURE_ID = re.compile(r'<figure id="(figure-[0-9-]+)" class="figure">')  # pages of the site and the guide


def first_figure_ids(html: str) -> str:
    """A page that shows a text twice (a definition in its objective and the glossary) keeps each figure's
    id on its first showing only: ids are unique in a page, and a link to the figure goes to the first."""
    seen: set[str] = set()

    def once(match: re.Match) -> str:
        if match[1] in seen:
            return '<figure class="figure">'
        seen.add(match[1])
        return match[0]
    return _FIGURE_ID.sub(once, html) if "<figure id=" in html else html
