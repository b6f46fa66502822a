"""Property: whatever a file given to `stats` holds (rows of the long format with arbitrary text in every
field, a header changed, bytes that are not UTF-8, NUL, an open quote), `stats` exits 0 or 1 and never 3;
on 1 it wrote nothing (no item-stats.json, no report) and said which file; what it prints holds no raw
control character (text from the file is shown as text). A teacher's upload is hostile input like a page.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import shutil
import unicodedata
from itertools import count
from pathlib import Path

import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st

from pipeline.cli import main
from tests.kit import stats as kit

HEADER = ["learner", "question_id", "response", "score", "time"]
ANY = st.text(st.characters(exclude_categories=("Cs",)), max_size=12)
VALID = {
    "learner": ["u1", "u2", "u3"],
    "question_id": [kit.qid(0), kit.qid(1), kit.ESSAY, "9.9-q1"],
    "response": ["a", "b", "c|a", "", "-"],
    "score": ["", "0", "1", "0.5"],
    "time": ["", "2026-11-30T12:00:00.000Z", "2026-11-30T12:00:00+01:00"],
}
# A field is one of its valid values five times in six and arbitrary text otherwise, so that good files
# (exit 0) come up as well as bad ones.
FIELD = {name: st.one_of(*[st.sampled_from(values)] * 5, ANY) for name, values in VALID.items()}
ROW = st.fixed_dictionaries(FIELD).map(lambda row: [row[name] for name in HEADER])
TAILS = st.sampled_from([b"", b"", b"\x00", b"\xff\xfe", b'u9,"' + kit.qid(0).encode() + b",a\n", b"\xed\xa0\x80", b"\r\n\r\n"])
RUNS = count()


@pytest.fixture(scope="module")
def exam(tmp_path_factory) -> Path:
    return kit.write_exam(tmp_path_factory.mktemp("stats-property"))


def _csv(header: list[str], rows: list[list[str]]) -> str:
    out = io.StringIO(newline="")
    writer = csv.writer(out)
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


@settings(max_examples=150)
@given(header=st.one_of(st.just(HEADER), st.just(HEADER), st.lists(st.sampled_from([*HEADER, "extra", ""]), min_size=1, max_size=6)),
       rows=st.lists(ROW, max_size=6), tail=TAILS)
@example(header=HEADER, rows=[["u1", kit.qid(0), "a", "", ""], ["u2", kit.qid(0), "b", "", ""]], tail=b"")  # a good file
@example(header=HEADER, rows=[["u1", kit.qid(0), "a", "\x1b[31mred", ""]], tail=b"")  # an escape sequence in a bad score
def test_stats_exits_0_or_1_and_writes_nothing_on_1(exam, header, rows, tail):
    run = exam.parent / f"run-{next(RUNS)}"
    run.mkdir()
    upload = run / "answers.csv"
    upload.write_bytes(_csv(header, rows).encode("utf-8", "surrogatepass") + tail)
    stored, report = exam / "stats-demo" / "item-stats.json", run / "report"
    stored.unlink(missing_ok=True)
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["stats", "--sources", str(exam), "--today", "2026-11-30", f"--out={report}", str(upload)])
    said = err.getvalue()
    event(f"exit {code}")
    assert code in (0, 1), said
    assert not [c for c in said if unicodedata.category(c) == "Cc" and c != "\n"], said  # shown as text
    if code == 1:
        assert not stored.exists() and not report.exists(), said
        assert "answers.csv" in said, said
    else:
        assert json.loads(stored.read_text(encoding="utf-8"))["files"][0]["name"] == "answers.csv"
    shutil.rmtree(run)
