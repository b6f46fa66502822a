"""What validate and build say about each varied question, offline: from its `values:` lists or the
variants lock, never by running code.

A `code:` question without a lock entry cannot be built (variants-not-run, an error); one whose entry's
hash is not the question's is stale (variants-stale: a warning, an error under --strict; the build still
uses the recorded values). The last run's stress findings are reported again, and the built variants are
stress-tested once more as the templates now render them. A `values:` question is stress-tested over
every combination. Each finding is at the question's line, with the seeds that show it.
"""

from __future__ import annotations

from pipeline.diagnostics import Report
from pipeline.examples.requirements import exam_requirements
from pipeline.load.content import ExamContent, ObjectiveFile
from pipeline.questions import QuestionBase
from pipeline.text.prog import command
from pipeline.variants.built import all_draws, draws_of
from pipeline.variants.lock import VariantsLock, variants_hash
from pipeline.variants.stress import stress


def varied(content: ExamContent) -> list[tuple[ObjectiveFile, int, QuestionBase]]:
    return [(f, i, q) for f in content.objective_files for i, q in f.indexed("questions") if q.variants is not None]


def check_variants_lock(content: ExamContent, lock: VariantsLock, report: Report) -> None:
    questions = varied(content)
    if not questions:
        return
    requirements = exam_requirements(content.exam, content.folder)
    for file, i, q in questions:
        for severity, message, code in problems(q, lock, requirements if q.variants.environment == "exam" else ()):
            add = report.error if severity == "error" else report.warning
            add(file.path, file.position(("questions", i)), f"questions[{i}] ({q.id}): {message}", code)


def problems(q: QuestionBase, lock: VariantsLock, requirements: tuple[str, ...]) -> list[tuple[str, str, str]]:
    v = q.variants
    assert v is not None
    renew = f"run `{command('variants')}` to draw them"
    if v.values is not None:
        return [("error", f.message, f.code) for f in stress(q, all_draws(q), v.count).findings]
    entry = lock.entries.get(q.id)
    if entry is None:
        return [("error", f"its variants have never been drawn (no entry in {lock.path.name}); {renew}", "variants-not-run")]
    found: list[tuple[str, str, str]] = []
    if entry.hash != variants_hash(q, requirements):
        found.append(("warning", f"changed since its variants were drawn (its code, count, seed, templates or the exam's requirements); "
                                 f"{renew} again", "variants-stale"))
    draws = draws_of(q, entry)  # a stale entry's variants still build (fewer, when the count rose) until `variants` runs
    recorded = list(entry.findings)
    seen = {f.code for f in recorded}
    recorded += [f for f in stress(q, draws, v.count).findings if f.code not in seen]
    return found + [("error", f.message, f.code) for f in recorded]
