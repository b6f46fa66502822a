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
from pipeline.cli import main
from pipeline.derive import build_view
from pipeline.render.lms.text import block_html, feedback_html, inline_html
from pipeline.settings.reader import exam_inputs
from pipeline.shapes.parts import Choices, Numeric, Pairs, Sequence, Text
from pipeline.text.plaintext import to_plain
from pipeline.view.model import ExamView, QuestionView
from tests.conftest import FIXTURES, ROOT, TODAY, write_found_lock

OBJECTIVES = ("valid", "lms_types")


@dataclass
class Built:
    out: Path  # OUT/<exam-id>/
    view: ExamView
    stderr: str


# The outputs the LMS tests read: the bank and the four exports. A build of these alone skips the guide's PDF and the
# deck, most of a whole build's time, which no LMS test opens.
LMS_ONLY = "bank,moodle,gift,qti21,canvas"


def build_fixture(base: Path, objectives: tuple[str, ...] = OBJECTIVES, only: str | None = None) -> Built:
    """The fixture exam built into base/out/demo (every output, or those `only` names) and its view."""
    folder = base / "sources" / "demo"
    folder.mkdir(parents=True)
    shutil.copy(FIXTURES / "exams" / "valid.yaml", folder / "exam.yaml")
    for name in objectives:
        shutil.copy(FIXTURES / "objectives" / f"{name}.yaml", folder / f"{name}.yaml")
    write_found_lock(folder)
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["build", "--sources", str(base / "sources"), "--out", str(base / "out"), "--today", TODAY, *(["--only", only] if only else [])])
    assert code == 0, err.getvalue()
    content = validate(base / "sources", dt.date.fromisoformat(TODAY)).exams[0]
    return Built(base / "out" / "demo", build_view(exam_inputs(content)), err.getvalue())


def kind(q: QuestionView) -> str:
    """The neutral kind of LMS question a view question becomes, from its one part's shape: what the tests
    read every format back into (each format names these in its own words)."""
    part = q.parts[0]
    if isinstance(part, Choices):
        return "true_false" if part.true_false else "multiple" if part.multiple else "single"
    if isinstance(part, Text):
        return "fill_in" if part.auto else "essay"
    return {Pairs: "matching", Sequence: "ordering", Numeric: "numeric"}[type(part)]


def number(value: float, low: float, high: float) -> tuple[float, float, float]:
    """A numeric answer as (value, low, high), rounded so that value ± tolerance in any format compares."""
    return round(value, 9), round(low, 9), round(high, 9)


def expected(q: QuestionView) -> dict:
    """A question as every export should hold it, in one neutral shape the tests parse each format back into."""
    part = q.parts[0]
    want = {"id": q.id, "kind": kind(q), "stem": block_html(q.stem_md), "feedback": feedback_html(q)}
    if isinstance(part, Choices):
        want["options"] = [(inline_html(o.text_md), o.correct) for o in part.options]
    elif isinstance(part, Text):
        want["accepted"] = list(part.accepted)
    elif isinstance(part, Pairs):
        used = {p.answer_id for p in part.prompts}
        want["pairs"] = [(inline_html(p.text_md), to_plain(part.answer_of(p).text_md)) for p in part.prompts]
        want["extras"] = [to_plain(a.text_md) for a in part.answers if a.id not in used]
    elif isinstance(part, Sequence):
        want["order"] = [inline_html(i.text_md) for i in part.in_order()]
    elif isinstance(part, Numeric):
        want["number"] = number(part.value, part.low, part.high)
    return blank(**want)


def blank(**fields) -> dict:
    """The neutral shape with nothing in it, for parsers to fill."""
    return {"id": "", "kind": "", "stem": "", "feedback": "", "options": [], "accepted": [], "pairs": [], "extras": [], "order": [],
            "number": None} | fields


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
