"""`site/`: the static study site, one HTML file per page plus its script, style and data files.

Pages: the exam (`index.html`), one per objective, the glossary, mixed practice, references and search, and
the practice tools: review (FSRS-scheduled, one question at a time), the mock exam, and the learner's progress
(export, import, reset). The FSRS scheduler, ts-fsrs, comes from npm (pipeline/render/vendor.py).
Everything comes from the exam view; the same view gives the same bytes (no clock, sorted JSON, files
copied as they are).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.render import shape_files, vendor
from pipeline.render.explained import Explained, explaining_points
from pipeline.render.site import data, media, paths
from pipeline.render.site.data import in_mock
from pipeline.render.site.facts import mock_facts
from pipeline.render.site.html import SITE_TEMPLATES, render_page
from pipeline.render.support import writable
from pipeline.view.model import ExamView, ObjectiveView
from schema.export import schema_text
from schema.progress import PROGRESS_VERSION, Progress

if TYPE_CHECKING:  # the registry in pipeline/render/__init__.py imports this module
    from pipeline.render import RenderContext

SITE_DIR = "site"
# copied from templates/site/ into assets/: the style, and scripts of one idea each (see each file's head)
STATIC = ("site.css", "grade.js", "schedule.js", "store.js", "site.js", "review.js", "mock.js", "mock-review.js", "merge.js", "progress.js",
          "progress_check.js", "search.js")
PROGRESS_SCHEMA = "progress.schema.json"  # the published schema of the progress export, beside the scripts
# The shapes the site can ask: those with an input template and an answer template (built in, or in the
# shape's folder with the script that registers its reader; pipeline/render/shape_files.py).
SHAPES = shape_files.shapes_with("site", SITE_TEMPLATES, ("shapes", "answers"))


@dataclass(frozen=True)
class GlossaryEntry:
    term: str
    definition_md: str
    objective: ObjectiveView  # where the term is defined
    explained: Explained  # where it is explained: its first mention in a key point, else its key terms

    @property
    def href(self) -> str:
        """The explaining key point on its objective's page, else the term in its objective's key terms."""
        where, point = self.explained.objective, self.explained.point
        anchor = paths.key_point_anchor(point.id) if point else paths.term_anchor(self.term)
        return f"{paths.objective_page(where.id)}#{anchor}"


def glossary(view: ExamView) -> list[GlossaryEntry]:
    """Every key term, alphabetical regardless of case (ties keep outline order), with where it is explained."""
    explained = explaining_points(view)
    entries = [GlossaryEntry(t.term, t.definition, o, explained[t.term.casefold()]) for o in view.objectives for t in o.terms]
    return sorted(entries, key=lambda e: e.term.casefold())


def reading(view: ExamView) -> dict[str, str]:
    """Question id -> where to read again what it tests: the first key point it names, on its objective's page,
    else its objective's page (a mock attempt's review links there)."""
    points = {p.id: f"{paths.objective_page(o.id)}#{paths.key_point_anchor(p.id)}" for o in view.objectives for p in o.key_points}
    return {q.id: next((points[k] for k in q.key_points if k in points), paths.objective_page(q.objective)) for q in view.questions}


def pages(view: ExamView, warnings: list[str] | None = None) -> dict[str, tuple[str, dict]]:
    """file name -> (template, values) for every page of the site; a question of a shape the site cannot ask
    is left out, with a line in `warnings`."""
    shown = frozenset(q.id for q in writable(view.questions, SHAPES, "site", [] if warnings is None else warnings))
    held = frozenset(q.id for q in view.questions if q.id in shown and not q.mock_only)  # what practice pages show
    mock = [q for q in view.questions if q.id in shown and in_mock(q, view.exam.mock_exam.drills)]
    common = {"view": view, "exam": view.exam, "held": held, "facts": mock_facts(view), "mock_only": sum(q.mock_only for q in mock)}
    result = {
        paths.INDEX: ("index.html.j2", {**common, "title": view.exam.title, "current": paths.INDEX}),
        paths.GLOSSARY: ("glossary.html.j2", {**common, "title": "Glossary", "current": paths.GLOSSARY, "entries": glossary(view)}),
        paths.PRACTICE: ("practice.html.j2", {**common, "title": "Practice", "current": paths.PRACTICE, "questions": view.questions}),
        paths.REFERENCES: ("references.html.j2", {**common, "title": "References", "current": paths.REFERENCES}),
        paths.SEARCH: ("search.html.j2", {**common, "title": "Search", "current": paths.SEARCH}),
        paths.REVIEW: ("review.html.j2", {**common, "title": "Review", "current": paths.REVIEW,
                                          "questions": [q for q in view.questions if q.id in held]}),
        paths.MOCK: ("mock.html.j2", {**common, "title": "Mock exam", "current": paths.MOCK,
                                      "questions": mock}),
        paths.MOCK_REVIEW: ("mock-review.html.j2", {**common, "title": "Mock exam review", "current": paths.MOCK, "questions": mock,
                                                    "reading": reading(view)}),
        paths.PROGRESS: ("progress.html.j2", {**common, "title": "Your progress", "current": paths.PROGRESS,
                                              "progress_version": PROGRESS_VERSION}),
    }
    objectives = view.objectives
    for i, objective in enumerate(objectives):
        neighbours = {"previous": objectives[i - 1] if i else None, "next": objectives[i + 1] if i + 1 < len(objectives) else None}
        values = {**common, "title": objective.heading, "current": None, "objective": objective, **neighbours}
        result[paths.objective_page(objective.id)] = ("objective.html.j2", values)
    return result


def _write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8", newline="\n")
    return path


def render(ctx: RenderContext) -> list[Path]:
    view, root = ctx.view, ctx.out_dir / SITE_DIR
    point = media.pointer(view.media)  # pages and data show each image by its content-hashed copy
    written = [_write(root / name, point(render_page(template, **values))) for name, (template, values) in pages(view, ctx.warnings).items()]
    assets = root / paths.ASSETS
    written += [_write(assets / name, (SITE_TEMPLATES / name).read_bytes()) for name in STATIC]
    written += [_write(assets / name, file.read_bytes()) for name, file in {**shape_files.scripts(), **shape_files.styles()}.items()]
    written += [_write(assets / name, content) for name, content in vendor.files(vendor.TS_FSRS.name).items()]
    schema = schema_text(PROGRESS_SCHEMA, Progress)
    written.append(_write(assets / PROGRESS_SCHEMA, schema))
    written.append(_write(assets / "progress-schema.js", data.as_script("PROGRESS_SCHEMA", json.loads(schema))))  # an import is checked against it
    held = frozenset(q.id for q in writable(view.questions, SHAPES, "site", []))  # the warnings were given with the pages
    written.append(_write(assets / "exam-data.js", point(data.as_script("EXAM_DATA", data.exam_data(view, held)))))
    written.append(_write(assets / "search-index.js", point(data.as_script("SEARCH_INDEX", data.search_entries(view)))))
    # the images, under media/ by path and content (pipeline/render/site/media.py; pages are all at the
    # site's top, so `media/...` finds them from file:// as from a server; img-src 'self' allows them)
    written += [_write(root / media.name(file), file.media_bytes) for file in view.media]
    return written
