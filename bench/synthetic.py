"""A synthetic exam `scale` times the size of the committed sample, written at run time for the benchmarks
(never committed).

Copy k of the sample becomes section k: its objectives 6.1-6.4 become k.1-k.4, every id is renumbered
the same way, and terms and stems get a "(set k)" suffix or prefix, so that the result is a valid
sources folder without a single warning (ids unique, terms unique, no stem repeated).
"""

from __future__ import annotations

import datetime as dt
import re
import shutil
from pathlib import Path
from typing import Any

import yaml

from pipeline.citations.lock import LOCK_NAME, CitationLock, LockEntry

SAMPLE_EXAM = Path(__file__).resolve().parent.parent / "sources" / "nca-genm"
EXAM_ID = "synthetic"


def _sample(sample: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    exam = yaml.safe_load((sample / "exam.yaml").read_text(encoding="utf-8"))
    objectives = [yaml.safe_load(p.read_text(encoding="utf-8")) for p in sorted(sample.rglob("6.*.yaml"))]
    return exam, objectives


def _renumber(text: str, k: int) -> str:
    """`6.1-q3` -> `k.1-q3`: the sample's ids all start with their section number."""
    return re.sub(r"^6\.", f"{k}.", text)


def _copy(objective: dict[str, Any], k: int) -> dict[str, Any]:
    """Copy k of one sample objective, every id renumbered and every term and stem made unique."""
    copy = {**objective, "id": _renumber(objective["id"], k)}
    copy["key_points"] = [{**p, "id": _renumber(p["id"], k)} for p in objective["key_points"]]
    copy["terms"] = [{**t, "term": f"{t['term']} (set {k})"} for t in objective.get("terms", [])]
    copy["examples"] = [{**e, "id": _renumber(e["id"], k)} for e in objective.get("examples", [])]
    copy["questions"] = [
        {**q, "id": _renumber(q["id"], k), "stem": f"(Set {k}) {q['stem']}", "key_points": [_renumber(r, k) for r in q.get("key_points", [])]}
        for q in objective.get("questions", []) if "{{" not in str(q.get("answer", ""))  # varied: their variants lock is the sample's ids'
    ]
    return copy


def make_exam(folder: Path, scale: int, sample: Path = SAMPLE_EXAM) -> Path:
    """Write `folder/synthetic/` (exam.yaml and 4 x `scale` objective files); return `folder`, the sources folder.
    `sample` is the exam copied (tests copy their own fixture exam, never the committed sample)."""
    exam, objectives = _sample(sample)
    weight = min(10, 100 // scale)  # the weights may add up to at most 100
    exam = {**exam, "id": EXAM_ID, "sections": [{"number": k, "title": f"Section {k}", "weight": weight} for k in range(1, scale + 1)]}
    # the copies' worked examples are never run (that needs torch): not a finding of a synthetic exam
    exam["checks"] = {**exam.get("checks", {}), "example-not-run": "off"}
    root = folder / EXAM_ID
    root.mkdir(parents=True, exist_ok=True)
    (root / "exam.yaml").write_text(yaml.safe_dump(exam, sort_keys=False, allow_unicode=True), encoding="utf-8")
    for k in range(1, scale + 1):
        section = root / f"section-{k}"
        section.mkdir(exist_ok=True)
        for objective in objectives:
            copy = _copy(objective, k)
            (section / f"{copy['id']}.yaml").write_text(yaml.safe_dump(copy, sort_keys=False, allow_unicode=True), encoding="utf-8")
        for figures in sorted(d for d in sample.rglob("figures") if d.is_dir()):  # the images the key points show
            shutil.copytree(figures, section / figures.name, dirs_exist_ok=True)
    _write_found_lock(root, objectives, dt.date.fromisoformat(str(exam["reviewed"])))
    return folder


def _write_found_lock(root: Path, objectives: list[dict[str, Any]], checked: dt.date) -> None:
    """A lock in which every quote was found on `checked`, as after an audit: validate reads the lock, so a
    realistic benchmark has one (and its exam validates without 'never checked' warnings)."""
    pairs = {(c["url"], c["quote"]) for o in objectives for kp in o["key_points"] for c in kp.get("citations", [])}
    entries = {pair: LockEntry(*pair, status="found", checked=checked, match="exact", score=1.0) for pair in sorted(pairs)}
    CitationLock(root / LOCK_NAME, entries).save()
