"""Shared by the LMS export tests: a fixture exam holding every question type (tests/fixtures/objectives/
lms_types.yaml: matching, ordering, essays, fill-ins, and text every format must escape), built once per
test module with the real CLI, its exam view, and what each question should look like in any export."""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from pipeline.check.validate import validate
from pipeline.citations.lock import CitationLock
from pipeline.cli import main
from pipeline.derive import build_view
from pipeline.render.lms import kind
from pipeline.render.lms.text import block_html, feedback_html, inline_html, plain
from pipeline.view.model import ExamView, QuestionView
from tests.conftest import FIXTURES, ROOT, TODAY, write_found_lock

OBJECTIVES = ("valid", "lms_types")


@dataclass
class Built:
    out: Path  # OUT/<exam-id>/
    view: ExamView
    stderr: str


def build_fixture(base: Path, objectives: tuple[str, ...] = OBJECTIVES) -> Built:
    folder = base / "sources" / "demo"
    folder.mkdir(parents=True)
    shutil.copy(FIXTURES / "exams" / "valid.yaml", folder / "exam.yaml")
    for name in objectives:
        shutil.copy(FIXTURES / "objectives" / f"{name}.yaml", folder / f"{name}.yaml")
    write_found_lock(folder)
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["build", "--sources", str(base / "sources"), "--out", str(base / "out"), "--today", TODAY])
    assert code == 0, err.getvalue()
    content = validate(base / "sources", dt.date.fromisoformat(TODAY)).exams[0]
    return Built(base / "out" / "demo", build_view(content, CitationLock.load(content.folder)), err.getvalue())


def expected(q: QuestionView) -> dict:
    """A question as every export should hold it, in one neutral shape the tests parse each format back into."""
    answers = {a.id: a for a in q.answers}
    used = {p.answer_id for p in q.pairs}
    items = {i.id: i for i in q.items}
    return {
        "id": q.id, "kind": kind(q), "stem": block_html(q.stem_md), "feedback": feedback_html(q),
        "options": [(inline_html(o.text_md), o.correct) for o in q.options],
        "accepted": list(q.accepted_answers),
        "pairs": [(inline_html(p.prompt_md), plain(answers[p.answer_id].text_md)) for p in q.pairs],
        "extras": [plain(a.text_md) for a in q.answers if a.id not in used],
        "order": [inline_html(items[i].text_md) for i in q.correct_order],
    }


def blank(**fields) -> dict:
    """The neutral shape with nothing in it, for parsers to fill."""
    return {"id": "", "kind": "", "stem": "", "feedback": "", "options": [], "accepted": [], "pairs": [], "extras": [], "order": []} | fields


def parse_gift(path: Path) -> tuple[int, str]:
    """Run gift-pegjs (package.json pins it; `make test` installs it with `npm ci`) on a file: (exit code, JSON or error)."""
    script = "const {parse}=require('gift-pegjs');try{process.stdout.write(JSON.stringify(parse(require('fs').readFileSync(process.argv[1],'utf8'))))}" \
             "catch(e){process.stderr.write(e.message+' at '+JSON.stringify(e.location&&e.location.start));process.exit(2)}"
    assert (ROOT / "node_modules" / "gift-pegjs").is_dir(), "gift-pegjs is not installed: run `make test` (it runs npm ci)"
    done = subprocess.run(["node", "-e", script, str(path)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout if done.returncode == 0 else done.stderr


# Moodle's grade values (question/engine/bank.php, question_bank::fraction_options_full), as percentages:
# the tests' own copy, so an exporter typo cannot agree with itself.
GRADES = (100, 90, 83.33333, 80, 75, 70, 66.66667, 60, 50, 40, 33.33333, 30, 25, 20, 16.66667, 14.28571, 12.5,
          11.11111, 10, 5, 0)


def is_grade(value: float) -> bool:
    return any(abs(abs(value) - g) < 1e-5 for g in GRADES)


def weight_problems(qid: str, weights: list[float]) -> list[str]:
    """Moodle's rules for a multiple-answer question's fractions, plus ours (wrong ones share -100)."""
    problems = [f"{qid}: {w} is not a Moodle grade value" for w in weights if not is_grade(w)]
    if round(sum(w for w in weights if w > 0), 2) != 100:
        problems.append(f"{qid}: positive fractions add up to {sum(w for w in weights if w > 0)}, not 100")
    negative = [w for w in weights if w < 0]
    if negative and round(sum(negative), 2) != -100:
        problems.append(f"{qid}: negative fractions add up to {sum(negative)}, not -100")
    return problems
