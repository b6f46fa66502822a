"""Comparing what an example printed with what its source records: normalisation, `...`, tolerance, the diff."""

from __future__ import annotations

import pytest

from pipeline.examples.compare import matches, tidy_output, unified_diff
from schema.models import Tolerance


def test_line_endings_and_trailing_space_do_not_count_but_leading_space_does():
    assert tidy_output("a  \r\nb\rc\n\n\n") == "a\nb\nc"
    assert matches("x = 1\ny = 2", "x = 1   \r\ny = 2\n")
    assert not matches("  indented", "indented")
    assert not matches("x = 1", "x = 2")


@pytest.mark.parametrize(("recorded", "actual", "expected"), [
    ("took ... s", "took 0.25 s", True),
    ("start\n...\nend", "start\nanything\nat all\nend", True),  # across lines
    ("...end", "the end", True),
    ("start...", "start and more", True),
    ("a...b...c", "a1b2c", True),
    ("a...b...c", "a1c2b", False),  # pieces in order
    ("start...", "the start", False),  # the first piece at the start
    ("...end", "end of it", False),  # the last piece at the end
    ("ab...ba", "aba", False),  # pieces may not overlap
])
def test_ellipsis_matches_any_text_in_its_place(recorded, actual, expected):
    assert matches(recorded, actual) is expected


def test_numbers_within_the_tolerance_match_and_the_text_around_them_must_not_change():
    loose = Tolerance(abs=1e-3)
    assert matches("loss 0.6931, acc 0.50", "loss 0.69312, acc 0.5004", loose)
    assert not matches("loss 0.6931", "loss 0.6950", loose)
    assert not matches("loss 0.6931", "LOSS 0.6931", loose)
    assert matches("ratio 4.0x", "ratio 4.04x", Tolerance(rel=0.02))
    assert not matches("ratio 4.0x", "ratio 4.04x")  # no tolerance: exact
    assert not matches("float32", "float31", Tolerance(abs=5))  # digits inside a word are text, not numbers
    assert matches("took ... s, loss 0.693", "took 12.5 s, loss 0.6931", loose)  # both marks together


def test_diff_is_unified_recorded_against_actual():
    assert unified_diff("a\nb\nc", "a\nB\nc").split("\n") == ["--- recorded", "+++ actual", "@@ -1,3 +1,3 @@", " a", "-b", "+B", " c"]
