"""The data the site's scripts read, written as script files (`window.EXAM_DATA = {...};`).

Pages load them with `<script src>`: a page opened from `file://` may not `fetch()` a file beside it, and
the pages' Content-Security-Policy forbids inline script. JSON is written with sorted keys and ASCII
escapes, so the same view gives the same bytes and no source text can end the script early.
"""

from __future__ import annotations

import json

from pipeline.render.site import paths
from pipeline.render.site.topics import question_topics
from pipeline.shapes import grading, registry
from pipeline.text import cloze
from pipeline.text.plaintext import to_plain
from pipeline.view.fingerprint import content_hash
from pipeline.view.model import ExamView, QuestionView
from schema.progress import PROGRESS_VERSION


def storage_key(view: ExamView) -> str:
    """Where the learner's progress is kept: the exam and the progress format's version. Not the bank's
    version: a new bank keeps the progress, and each card's content hash tells which questions changed."""
    return f"exam-prep:{view.exam.id}:progress-{PROGRESS_VERSION}"


def self_graded(q: QuestionView) -> bool:
    """A written answer with only a model answer: the learner compares and rates it (the norm for free text)."""
    return any(registry.of(part).self_graded(part) for part in q.parts)


def in_mock(q: QuestionView, drills: bool) -> bool:
    """Whether the mock exam may draw the question: graded by the site, and authored unless drills are asked for."""
    return not self_graded(q) and (drills or not q.generated)


def answer_data(q: QuestionView) -> dict:
    """What the practice script needs to mark an answer: each part's grading rule (pipeline/shapes/grading.py),
    the one definition templates/site/grade.js applies; the page itself holds the explanation."""
    return {"type": q.type, "parts": [grading.rule(part) for part in q.parts]}


def question_data(q: QuestionView, topics: list[str]) -> dict:
    """A card: how to grade it, its content hash, where it belongs and is shown, and the terms it is about."""
    return {
        "grade": answer_data(q), "hash": content_hash(q), "objective": q.objective, "section": q.section,
        "label": f"{q.objective} {q.label}", "page": f"{paths.objective_page(q.objective)}#{paths.question_anchor(q.id)}",
        "topics": topics, "self": self_graded(q), "mockOnly": q.mock_only,
        # a varied question: each variant's grading (review shows them in turn; `grade` is variant 1's)
        "variants": [answer_data(v.question) for v in q.variants] if q.variants else None,
    }


def exam_data(view: ExamView, held: frozenset[str] | None = None) -> dict:
    """Everything the scripts read, for the questions the site shows (`held`: all when None). `order` and each
    objective's `questions` are what practice shows (not those held out for mock exams, which only a mock asks)."""
    held = frozenset(q.id for q in view.questions) if held is None else held
    questions = [q for q in view.questions if q.id in held]
    practice = [q.id for q in questions if not q.mock_only]
    topics = question_topics(view)
    mock = view.exam.mock_exam
    return {
        "exam": view.exam.id,
        "code": view.exam.code,
        "storageKey": storage_key(view),
        "progressVersion": PROGRESS_VERSION,
        "grading": grading.site_data(),
        "questions": {q.id: question_data(q, topics[q.id]) for q in questions},
        "order": practice,
        "objectives": {o.id: {"heading": o.heading, "section": o.section, "page": paths.objective_page(o.id),
                              "questions": [q.id for q in (*o.questions, *o.generated) if q.id in held and not q.mock_only]} for o in view.objectives},
        "sections": [{"number": s.number, "heading": s.heading, "weight": s.weight, "objectives": [o.id for o in s.objectives]}
                     for s in view.sections],
        "mock": {"questions": mock.questions, "minutes": mock.minutes, "pass": mock.pass_mark},
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
