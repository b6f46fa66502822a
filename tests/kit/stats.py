"""Item-statistics test kit: a fixture exam of 36 choice items (and one essay), answers drawn from a known
2PL model with a fixed seed, and a writer per supported export following the platforms' real layouts.

The model: learner ability theta ~ N(0, 1); item j answered right with P = 1 / (1 + exp(-a_j (theta - b_j))).
A wrong answer picks a distractor by fixed weights. Two items are deliberately broken: MISKEYED's key in
the sources is option "a", but learners' knowledge leads them to option TRUE_OPTION (so the stronger a
learner, the likelier a "wrong" answer by the key); DEAD's option "d" is never chosen.

The writers are independent of the code under test: they follow Moodle's and Canvas's column layouts as
the platforms' code writes them (see the parsers' docstrings), compute the platforms' own statistics with
numpy from the generated answers, and write CSV with the csv module.
"""

from __future__ import annotations

import csv
import datetime as dt
import math
import random
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pipeline.derive.build import build_view
from pipeline.diagnostics import Report
from pipeline.load.loader import exam_folders, load_exam_file, load_objectives
from pipeline.settings.reader import exam_inputs

SEED = 2026
ITEMS = 36
LEARNERS = 320
MISKEYED = "6.2-q07"
TRUE_OPTION = "c"  # the option learners who know the answer choose on MISKEYED
DEAD = "6.3-q12"
ESSAY = "6.1-q13"
EXAM = """id: stats-demo
code: STAT-1
title: Item statistics fixture
vendor: Example
exam_page: https://example.org/exam
reviewed: 2026-11-01
review_policy: {max_age_days: 365}
sections:
  - {number: 6, title: Performance, weight: 30}
"""
WORDS = ["latency", "throughput", "memory", "batching", "kernels", "caching", "precision", "pruning", "sharding", "profiling",
         "scheduling", "tiling"]


def qid(j: int) -> str:
    return f"6.{j // 12 + 1}-q{j % 12 + 1:02d}"


def _question(j: int) -> str:
    """A single-choice question; some stems and options hold commas, one option a line break's worth of words."""
    word = WORDS[j % 12]
    stem = f"Item {j + 1}: which choice, about {word}, is right for case {j + 1}?"
    options = [f"{word} answer {j + 1}, the right one", f"{word} distractor one of {j + 1}", f"{word} distractor two of {j + 1}",
               f"{word} distractor three of {j + 1}"]
    rows = "\n".join(f'      - "{o}"' for o in options)
    return f"""  - id: {qid(j)}
    type: single
    stem: "{stem}"
    options:
{rows}
    answer: "{options[0]}"
    explanation: Because it is the right one for case {j + 1}.
"""


def write_exam(root: Path) -> Path:
    """sources/stats-demo/: exam.yaml and three objectives of twelve questions each (6.1 also holds the essay)."""
    folder = root / "sources" / "stats-demo"
    (folder / "6-performance").mkdir(parents=True)
    (folder / "exam.yaml").write_text(EXAM, encoding="utf-8")
    for n in range(3):
        questions = "".join(_question(j) for j in range(n * 12, n * 12 + 12))
        if n == 0:
            questions += f"""  - id: {ESSAY}
    type: short_answer
    stem: "Explain, in a sentence or two, when to use mixed precision."
    answer: When memory or speed matters and the model tolerates lower precision.
    explanation: A model answer.
"""
        (folder / "6-performance" / f"6.{n + 1}-part.yaml").write_text(
            f'id: "6.{n + 1}"\ntitle: Part {n + 1}\nsummary: Part {n + 1} of the fixture.\nreviewed: 2026-11-01\n'
            f'key_points:\n  - {{id: 6.{n + 1}-kp, text: Point {n + 1} of the fixture.}}\nquestions:\n{questions}',
            encoding="utf-8")
    return root / "sources"


def view_of(sources: Path):
    folder = exam_folders(sources)[0]
    report = Report()
    exam_file = load_exam_file(folder, report)
    content = load_objectives(folder, exam_file, report).content()
    assert not report.errors, [d.format() for d in report.errors]
    return build_view(exam_inputs(content))


@dataclass
class Model:
    """The generating parameters and the answers drawn from them (option ids, per learner and item)."""

    ids: list[str]
    a: np.ndarray
    b: np.ndarray
    theta: np.ndarray
    chosen: list[list[str]]  # learner x item: option id ("" = left blank)
    keyed: np.ndarray  # learner x item: 1 when the choice is the sources' key

    def expected_facility(self) -> np.ndarray:
        """E[P(right)] over theta ~ N(0,1) by Gauss-Hermite quadrature; for MISKEYED the chance of choosing 'a'."""
        x, w = np.polynomial.hermite_e.hermegauss(61)
        w = w / w.sum()
        p = 1 / (1 + np.exp(-self.a[:, None] * (x[None, :] - self.b[:, None])))
        right = p @ w
        j = self.ids.index(MISKEYED)
        right[j] = ((1 - p[j]) * DISTRACTOR_WEIGHTS[0]) @ w  # "a" is the most attractive wrong answer there
        return right


DISTRACTOR_WEIGHTS = (0.5, 0.3, 0.2)


def generate(view, learners: int = LEARNERS, seed: int = SEED) -> Model:
    rng = np.random.default_rng(seed)
    ids = [qid(j) for j in range(ITEMS)]
    a = rng.uniform(0.3, 2.5, ITEMS)
    b = rng.uniform(-1.2, 1.2, ITEMS)
    theta = rng.normal(0, 1, learners)
    p = 1 / (1 + np.exp(-a[None, :] * (theta[:, None] - b[None, :])))
    right = rng.random((learners, ITEMS)) < p
    pick = rng.random((learners, ITEMS))
    chosen = [[_choice(ids[j], right[i, j], pick[i, j]) for j in range(ITEMS)] for i in range(learners)]
    keyed = np.array([[1.0 if chosen[i][j] == "a" else 0.0 for j in range(ITEMS)] for i in range(learners)])
    return Model(ids, a, b, theta, chosen, keyed)


def _choice(question: str, right: bool, u: float) -> str:
    """The option chosen: the truly right one, or a distractor by DISTRACTOR_WEIGHTS."""
    truth, wrong = ("a", ["b", "c", "d"])
    if question == MISKEYED:
        truth, wrong = TRUE_OPTION, ["a", "b", "d"]
    if right:
        return truth
    weights = list(DISTRACTOR_WEIGHTS)
    if question == DEAD:
        weights = [0.6, 0.4, 0.0]
    cumulative = np.cumsum(weights) / sum(weights)
    return wrong[int(np.searchsorted(cumulative, u, side="right"))]


def implied_point_biserials(model: Model, view, population: int = 60_000) -> np.ndarray:
    """The corrected item-rest correlation each item has under the generating model (a large simulated population)."""
    rng = np.random.default_rng(SEED + 2)
    theta = rng.normal(0, 1, population)
    p = 1 / (1 + np.exp(-model.a[None, :] * (theta[:, None] - model.b[None, :])))
    right = rng.random(p.shape) < p
    pick = rng.random(p.shape)
    keyed = np.zeros(p.shape)
    for j, question in enumerate(model.ids):
        if question == MISKEYED:  # keyed right only when the learner picks the wrong-but-keyed "a"
            keyed[:, j] = (~right[:, j]) & (pick[:, j] < DISTRACTOR_WEIGHTS[0])
        else:
            keyed[:, j] = right[:, j]
    total = keyed.sum(axis=1)
    return np.array([np.corrcoef(keyed[:, j], total - keyed[:, j])[0, 1] for j in range(len(model.ids))])


# ---- the exports -------------------------------------------------------------------------------------------

def options(q) -> tuple:
    """A question's options in display order (its choices part), or none."""
    part = q.parts[0]
    return part.options if getattr(part, "shape", "") == "choices" else ()


def _keys(view) -> dict:
    return {q.id: q for q in view.questions}


def _text(view, question: str, option: str) -> str:
    return next(o.text_md for o in options(_keys(view)[question]) if o.id == option)


def write_long(path: Path, model: Model, view, extra_rows: list[list[str]] = ()) -> Path:
    start = dt.datetime(2026, 11, 20, 9, 0, tzinfo=dt.UTC)
    with path.open("w", newline="", encoding="utf-8") as handle:
        out = csv.writer(handle)
        out.writerow(["learner", "question_id", "response", "score", "time"])
        for i, row in enumerate(model.chosen):
            for j, option in enumerate(row):
                out.writerow([f"u{i:04d}", model.ids[j], option, "", (start + dt.timedelta(minutes=i, seconds=j)).isoformat().replace("+00:00", "Z")])
            out.writerow([f"u{i:04d}", ESSAY, "FP16, then BF16 \"when it fits\",\nand FP32 for the rest", "0.5", ""])
        for extra in extra_rows:
            out.writerow(extra)
    return path


def _moodle_time(when: dt.datetime) -> str:
    """Moodle's strftimedatetime with the comma made a space, as the Responses table writes it."""
    return f"{when.day} {when:%B %Y}  {int(when.strftime('%I'))}:{when:%M %p}"


def write_moodle_responses(path: Path, model: Model, view, *, question_text: bool = True, second_attempts: int = 25) -> Path:
    """Responses report download: user columns, State, times, grade, then Question N / Response N / Right answer N."""
    keys = _keys(view)
    slots = [*model.ids, ESSAY]
    header = ["Last name", "First name", "Email address", "State", "Started on", "Completed", "Time taken", f"Grade/{len(slots)}.00"]
    for n in range(1, len(slots) + 1):
        header += ([f"Question {n}"] if question_text else []) + [f"Response {n}", f"Right answer {n}"]
    start = dt.datetime(2026, 11, 20, 9, 0, tzinfo=dt.UTC)
    with path.open("w", newline="", encoding="utf-8-sig") as handle:
        out = csv.writer(handle)
        out.writerow(header)
        for i, row in enumerate(model.chosen):
            answers = [*row, None]
            out.writerow(_moodle_row(i, start + dt.timedelta(hours=i), "Finished", slots, answers, keys, question_text))
            if i < second_attempts:  # a later attempt, every answer right: counting it would lift every facility
                out.writerow(_moodle_row(i, start + dt.timedelta(hours=i, days=3), "Finished", slots, ["a"] * len(row) + [None], keys, question_text))
        out.writerow(_moodle_row(9999, start, "In progress", slots, [""] * len(slots), keys, question_text))
    return path


def _summary(q) -> str:
    from pipeline.text.plaintext import to_plain

    return to_plain(q.stem_md) + (": " + "; ".join(to_plain(o.text_md) for o in options(q)) if options(q) else "")


def _moodle_row(i: int, started: dt.datetime, state: str, slots, answers, keys, question_text: bool) -> list[str]:
    row = [f"Learner{i:04d}", "Test", f"l{i:04d}@example.org", state, _moodle_time(started),
           _moodle_time(started + dt.timedelta(minutes=40)), "40 mins", "0.00"]
    for question, option in zip(slots, answers, strict=True):
        q = keys[question]
        response = "-" if option == "" else (_text_of(q, option) if option else "I would use it when memory is short, say, for big models")
        right = "; ".join(o.text_md for o in options(q) if o.correct) or (q.answer_md or "")
        row += ([_summary(q)] if question_text else []) + [response, right]
    return row


def _text_of(q, option: str) -> str:
    return next(o.text_md for o in options(q) if o.id == option)


def _first_attempt_scores(model: Model) -> np.ndarray:
    return model.keyed


def write_moodle_statistics(path: Path, model: Model, view, *, everything: bool = True) -> Path:
    """Statistics download: Quiz information, Quiz structure analysis, then (full report) each question's analysis of responses."""
    keys = _keys(view)
    scores = _first_attempt_scores(model)
    total = scores.sum(axis=1)
    with path.open("w", newline="", encoding="utf-8-sig") as handle:
        out = csv.writer(handle)
        out.writerow(["Quiz name", "Course name", "Number of complete graded first attempts", "Average grade of first attempts"])
        out.writerow(["Fixture quiz", "Fixture course", str(len(total)), f"{total.mean():.2f}"])
        out.writerow(["Q#", "Question type", "Question name", "Attempts", "Facility index", "Standard deviation", "Random guess score",
                      "Intended weight", "Effective weight", "Discrimination index", "Discriminative efficiency"])
        for n, question in enumerate(model.ids, start=1):
            x = scores[:, n - 1]
            r = np.corrcoef(x, total - x)[0, 1] * 100
            name = f"{question}: {keys[question].stem_md}"
            out.writerow([str(n), "Multiple choice", name, str(len(x)), f"{x.mean() * 100:.2f}%", f"{x.std(ddof=1) * 100:.2f}%", "25.00%",
                          f"{100 / len(model.ids):.2f}%", f"{100 / len(model.ids):.2f}%", f"{r:.2f}%", f"{r:.2f}%"])
        out.writerow([str(len(model.ids) + 1), "Essay", f"{ESSAY}: essay", str(len(total)), "", "", "0.00%", "2.00%", "", "", ""])
        out.writerow(["99", "Multiple choice", "Old question: no longer in the bank", "12", "50.00%", "", "", "", "", "10.00%", ""])
        if everything:
            for n, question in enumerate(model.ids):
                out.writerow(["Response", "Partial credit", "Count", "Frequency"])
                q = keys[question]
                for o in options(q):
                    count = sum(1 for row in model.chosen if row[n] == o.id)
                    out.writerow([o.text_md, "100.00%" if o.correct else "0.00%", str(count), f"{count / len(model.chosen) * 100:.2f}%"])
    return path


def write_canvas_items(path: Path, model: Model, view) -> Path:
    """Item analysis: Canvas's own point-biserials (against the whole score), correct answer first then distractors in order."""
    keys = _keys(view)
    scores = _first_attempt_scores(model)
    total = scores.sum(axis=1)
    sd = total.std()
    header = ["Question Id", "Question Title", "Answered Student Count", "Top Student Count", "Middle Student Count", "Bottom Student Count",
              "Quiz Question Count", "Correct Student Count", "Wrong Student Count", "Correct Student Ratio", "Wrong Student Ratio",
              "Correct Top Student Count", "Correct Middle Student Count", "Correct Bottom Student Count", "Variance", "Standard Deviation",
              "Difficulty Index", "Alpha", "Point Biserial of Correct", "Point Biserial of Distractor 2", "Point Biserial of Distractor 3",
              "Point Biserial of Distractor 4"]
    with path.open("w", newline="", encoding="utf-8") as handle:
        out = csv.writer(handle)
        out.writerow(header)
        for n, question in enumerate(model.ids):
            q = keys[question]
            ordered = [o for o in options(q) if o.correct] + [o for o in options(q) if not o.correct]
            pbis = []
            for o in ordered:
                chose = np.array([row[n] == o.id for row in model.chosen])
                pbis.append("" if chose.all() or not chose.any() else f"{(total[chose].mean() - total[~chose].mean()) / sd * math.sqrt(chose.mean() * (1 - chose.mean())):.6f}")
            x = scores[:, n]
            out.writerow([str(5000 + n), q.stem_md, str(len(x)), "86", "148", "86", str(len(model.ids)), str(int(x.sum())), str(int(len(x) - x.sum())),
                          f"{x.mean():.6f}", f"{1 - x.mean():.6f}", "0", "0", "0", f"{x.var():.6f}", f"{x.std():.6f}", f"{x.mean():.6f}", "N/A", *pbis])
        out.writerow(["9999", "A question that is no longer in this exam", "10", "3", "4", "3", str(len(model.ids)), "5", "5", "0.5", "0.5",
                      "0", "0", "0", "0.25", "0.5", "0.5", "N/A", "0.1", "", "", ""])
    return path


def write_canvas_students(path: Path, model: Model, view, *, second_attempts: int = 20) -> Path:
    """Student analysis with every attempt: name, id, sis_id, section..., attempt, then '<id>: <text>' and points per question."""
    keys = _keys(view)
    header = ["name", "id", "sis_id", "section", "section_id", "section_sis_id", "submitted", "attempt"]
    for n, question in enumerate(model.ids):
        header += [f"{7000 + n}: {keys[question].stem_md}", "1.0"]
    header += ["8999: A question removed from the exam since", "1.0", "n correct", "n incorrect", "score"]
    with path.open("w", newline="", encoding="utf-8") as handle:
        out = csv.writer(handle)
        out.writerow(header)
        for i, row in enumerate(model.chosen):
            for attempt in ([2, 1] if i < second_attempts else [1]):  # Canvas lists the latest first
                answers = row if attempt == 1 else ["a"] * len(row)
                cells = [f"Learner {i}", str(100 + i), f"S{i}", "Section A, Group 1", "11", "SA", f"2026-11-2{attempt} 10:00:00 UTC", str(attempt)]
                right = 0
                for n, option in enumerate(answers):
                    q = keys[model.ids[n]]
                    correct = any(o.correct and o.id == option for o in options(q))
                    right += correct
                    cells += [_text_of(q, option) if option else "", "1" if correct else "0"]
                cells += ["Irrelevant", "0", str(right), str(len(answers) - right), str(right)]
                out.writerow(cells)
    return path


# Counts of the 32 response patterns 00000, 00001, ..., 11111 (item 1 is the leftmost digit).
LSAT6 = [3, 6, 2, 11, 1, 1, 3, 4, 1, 8, 0, 16, 0, 3, 2, 15, 10, 29, 14, 81, 3, 28, 15, 80, 16, 56, 21, 173, 11, 61, 28, 298]
LSAT7 = [12, 19, 1, 7, 3, 19, 3, 17, 10, 5, 3, 7, 7, 23, 8, 28, 7, 39, 11, 34, 14, 51, 15, 90, 6, 25, 7, 35, 18, 136, 32, 308]
LSAT_ITEMS = 5  # the LSAT data's items


def lsat_learners(counts: list[int]) -> list[list[int]]:
    """One row of five 0/1 scores per learner, in pattern order."""
    rows = [[(pattern >> (LSAT_ITEMS - 1 - j)) & 1 for j in range(LSAT_ITEMS)] for pattern, n in enumerate(counts) for _ in range(n)]
    assert len(rows) == 1000
    return rows


def write_scores_long(path: Path, learners: list[list[int]], names: list[str], seed: int | None) -> Path:
    """The long layout: a right answer is the key "a"; a wrong one "b" or "c" (by the learner's place in the
    data, so the options' counts travel with the learner whatever the name). Rows shuffled when seeded."""
    rows = [[names[i], qid(j), "a" if right else "bc"[i % 2], "", ""] for i, scores in enumerate(learners)
            for j, right in enumerate(scores)]
    if seed is not None:
        random.Random(seed).shuffle(rows)
    with path.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([["learner", "question_id", "response", "score", "time"], *rows])
    return path
