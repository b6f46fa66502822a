"""The data the site's scripts read, written as script files (`window.EXAM_DATA = {...};`).

Pages load them with `<script src>`: a page opened from `file://` may not `fetch()` a file beside it, and
the pages' Content-Security-Policy forbids inline script. JSON is written with sorted keys and ASCII
escapes, so the same view gives the same bytes and no source text can end the script early.
"""

from __future__ import annotations

import json

from pipeline.render.site import paths
from pipeline.shapes import grading
from pipeline.text import cloze
from pipeline.text.plaintext import to_plain
from pipeline.view.model import ExamView, QuestionView
from schema.bank import SCHEMA_VERSION


def storage_key(view: ExamView) -> str:
    """Where the learner's progress is kept: the exam and the bank's schema version (a new version starts afresh)."""
    return f"exam-prep:{view.exam.id}:bank-{SCHEMA_VERSION}"


def answer_data(q: QuestionView) -> dict:
    """What the practice script needs to mark an answer: each part's grading rule (pipeline/shapes/grading.py),
    the one definition templates/site/grade.js applies; the page itself holds the explanation."""
    return {"type": q.type, "parts": [grading.rule(part) for part in q.parts]}


def exam_data(view: ExamView) -> dict:
    return {
        "exam": view.exam.id,
        "storageKey": storage_key(view),
        "grading": grading.site_data(),
        "questions": {q.id: answer_data(q) for q in view.questions},
        "objectives": {o.id: [q.id for q in (*o.questions, *o.generated)] for o in view.objectives},
    }


def search_entries(view: ExamView) -> list[dict]:
    """Terms, key points and questions, each with the page and anchor that shows it, in reading order."""
    entries = []
    for o in view.objectives:
        page = paths.objective_page(o.id)
        entries.append({"kind": "Objective", "title": o.heading, "text": to_plain(o.summary_md), "url": page})
        for t in o.terms:
            entries.append({"kind": "Term", "title": t.term, "text": to_plain(t.definition), "url": f"{paths.GLOSSARY}#{paths.term_anchor(t.term)}"})
        for p in o.key_points:
            entries.append({"kind": "Key point", "title": o.heading, "text": to_plain(cloze.strip(p.text_md)), "url": f"{page}#{paths.key_point_anchor(p.id)}"})
        for q in (*o.questions, *o.generated):
            entries.append({"kind": "Question", "title": f"{o.id} {q.label}", "text": to_plain(q.stem_md), "url": f"{page}#{paths.question_anchor(q.id)}"})
    return entries


def as_script(name: str, value: object) -> str:
    """`window.NAME = <json>;` with sorted keys and ASCII escapes: deterministic, and inert as data."""
    return f"window.{name} = {json.dumps(value, sort_keys=True, ensure_ascii=True, indent=1)};\n"
