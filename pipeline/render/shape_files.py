"""Where the site and the guide find each shape's templates and script: templates/<output>/ for the built-in
shapes, the shape's own folder for a shape that has one (pipeline/shapes/<name>/, see pipeline/shapes/registry.py).

A template asks for "shapes/<shape>.html.j2" (and the site for "answers/<shape>.html.j2") whichever it is;
`loader` maps those names to the folder's files, so the templates hold no list of shapes.
"""

from __future__ import annotations

from pathlib import Path

import jinja2

from pipeline.shapes import registry

# template name under the output's templates -> the file of a folder shape
OWN = {"site": {"shapes": "site.html.j2", "answers": "site.answer.html.j2"}, "guide": {"shapes": "guide.html.j2"}}


def own_files(output: str) -> dict[str, Path]:
    """Template name -> file, for the folder shapes' templates of `output` ("site" or "guide")."""
    found = {}
    for name, spec in registry.shapes().items():
        for kind, file in OWN[output].items():
            if spec.folder is not None and (spec.folder / file).is_file():
                found[f"{kind}/{name}.html.j2"] = spec.folder / file
    return found


def loader(output: str, templates: Path) -> jinja2.BaseLoader:
    """The output's own templates, then the folder shapes' (a folder shape never shadows a built-in template)."""
    files = own_files(output)

    def load(name: str):
        path = files.get(name)
        if path is None:
            return None
        return path.read_text(encoding="utf-8"), str(path), lambda: True
    return jinja2.ChoiceLoader([jinja2.FileSystemLoader(templates), jinja2.FunctionLoader(load)])


def shapes_with(output: str, templates: Path, kinds: tuple[str, ...]) -> frozenset[str]:
    """The shapes `output` can show: those with every template of `kinds`, built in or in their folder."""
    own = own_files(output)
    return frozenset(name for name in registry.names()
                     if all((templates / kind / f"{name}.html.j2").is_file() or f"{kind}/{name}.html.j2" in own for kind in kinds))


def scripts() -> dict[str, Path]:
    """assets/ name -> file, for the folder shapes' site scripts (loaded after grade.js, before site.js)."""
    return _own("site.js", "js")


def styles() -> dict[str, Path]:
    """assets/ name -> file, for the folder shapes' stylesheets (linked after site.css)."""
    return _own("site.css", "css")


def _own(file: str, suffix: str) -> dict[str, Path]:
    return {f"shape-{name}.{suffix}": spec.folder / file for name, spec in registry.shapes().items()
            if spec.folder is not None and (spec.folder / file).is_file()}
