"""Pathological exams for the benchmarks, written at run time: one objective with thousands of questions,
and an exam with a thousand objectives. Both are valid sources (no warnings that matter to a build)."""

from __future__ import annotations

from pathlib import Path

import yaml

from pipeline.citations.lock import LOCK_NAME, CitationLock

EXAM = {
    "id": "pathological", "code": "PATH-1", "title": "A pathological exam", "vendor": "Bench",
    "exam_page": "https://example.com/exam", "reviewed": "2026-11-01", "review_policy": {"max_age_days": 180},
    "sections": [{"number": 1, "title": "Everything", "weight": 100}],
}


def _point(o: int) -> dict:
    return {"id": f"1.{o}-point", "text": f"Point {o} holds for {{{{c1::reason {o}}}}}.",
            "citations": [{"url": f"https://example.com/page/{o}", "title": f"Page {o}", "quote": f"Point {o} holds."}]}


def _question(o: int, q: int) -> dict:
    return {"id": f"1.{o}-q{q}", "type": "single", "stem": f"Which answer does question {q} of objective {o} take?",
            "options": [f"Answer {q}", f"Other {q}", f"Neither {q}"], "answer": f"Answer {q}",
            "explanation": f"Question {q} takes answer {q}.", "key_points": [f"1.{o}-point"]}


def _objective(o: int, questions: int) -> dict:
    return {"id": f"1.{o}", "title": f"Objective {o}", "summary": f"What objective {o} covers.", "reviewed": "2026-11-01",
            "key_points": [_point(o)], "terms": [{"term": f"Term {o}", "definition": f"What term {o} means."}],
            "questions": [_question(o, q) for q in range(1, questions + 1)]}


def make(folder: Path, objectives: int, questions_each: int) -> tuple[Path, int]:
    """Write SOURCES/pathological/; return the sources folder and its number of items (objectives, points, terms, questions)."""
    root = folder / EXAM["id"]
    root.mkdir(parents=True, exist_ok=True)
    (root / "exam.yaml").write_text(yaml.safe_dump(EXAM, sort_keys=False), encoding="utf-8")
    for o in range(1, objectives + 1):
        (root / f"1.{o}.yaml").write_text(yaml.safe_dump(_objective(o, questions_each), sort_keys=False), encoding="utf-8")
    CitationLock(root / LOCK_NAME, {}).save()
    return folder, objectives * (3 + questions_each)
