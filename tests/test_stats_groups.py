"""The discrimination index's upper and lower 27% groups do not depend on who the learners are called or on
the order of the rows: learners tied on the total score at a cut share its places (tie-aware groups).

The data are the two classic five-item sets with many ties (totals 0-5 for 1,000 learners): LSAT-6
(Thissen 1982; the BUGS "LSAT" example) and LSAT-7 (Bock & Lieberman 1970), as response-pattern counts.
Sorting tied learners by name moved D by up to 0.078 there when the learners were renamed.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
from pathlib import Path

import pytest

from pipeline.cli import main
from tests.kit import stats as kit
from tests.kit.stats import LSAT6, LSAT7, LSAT_ITEMS, lsat_learners, write_scores_long


def _stats(root: Path, data: Path) -> dict:
    with contextlib.redirect_stderr(io.StringIO()) as err, contextlib.redirect_stdout(io.StringIO()):
        code = main(["stats", "--sources", str(root / "sources"), "--today", "2026-11-29", "--out", str(root / "report"), str(data)])
    assert code == 0, err.getvalue()
    return json.loads((root / "sources" / "stats-demo" / "item-stats.json").read_text())


def _expected_d(learners: list[list[int]], j: int) -> float:
    """D from the score levels alone: each group takes 270 places from the top (bottom) total down (up),
    the level the cut falls in contributing its right answers in proportion to the places it fills."""
    size = round(0.27 * len(learners))

    def group(levels) -> float:
        left, right = size, 0.0
        for total in levels:
            members = [s for s in learners if sum(s) == total]
            take = min(left, len(members))
            right += take / len(members) * sum(s[j] for s in members) if members else 0.0
            left -= take
        assert left == 0
        return right / size

    return group(range(LSAT_ITEMS, -1, -1)) - group(range(LSAT_ITEMS + 1))


@pytest.mark.parametrize("counts", [LSAT6, LSAT7], ids=["LSAT-6", "LSAT-7"])
def test_renamed_and_shuffled_learners_give_the_same_figures(tmp_path, counts):
    kit.write_exam(tmp_path)
    learners = lsat_learners(counts)
    plain = _stats(tmp_path, write_scores_long(tmp_path / "plain.csv", learners, [f"u{i:04d}" for i in range(1000)], None))
    pseudonyms = [f"{random.Random(i).getrandbits(32):08x}" for i in range(1000)]  # a different sort order
    renamed = _stats(tmp_path, write_scores_long(tmp_path / "renamed.csv", learners, pseudonyms, seed=7))
    ids = [kit.qid(j) for j in range(LSAT_ITEMS)]
    assert set(plain["items"]) == set(ids) and plain["learners"] == renamed["learners"] == 1000
    for qid in ids:
        a, b = plain["items"][qid], renamed["items"][qid]
        assert a.pop("irt") == pytest.approx(b.pop("irt"), abs=2e-3)  # an iterative fit: the last digits may follow row order
        assert a == b, qid
    for j, qid in enumerate(ids):
        assert plain["items"][qid]["discrimination_index"] == pytest.approx(_expected_d(learners, j), abs=1e-4)
    tied = [o[group] for qid in ids for o in plain["items"][qid]["options"].values() for group in ("upper", "lower")]
    assert any(v != int(v) for v in tied)  # the cut fell inside a tie: some learners counted fractionally


def test_without_a_tie_at_the_cut_the_groups_are_whole_learners(tmp_path):
    kit.write_exam(tmp_path)
    learners = [[1, 1, 1, 1, 1],  # 12 learners: 27% is 3 places
                [1, 1, 1, 1, 0], [1, 1, 1, 1, 0], [1, 1, 1, 0, 0], [1, 1, 0, 0, 0], [1, 1, 0, 0, 0],
                [1, 0, 0, 0, 0], [1, 0, 1, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 1], [1, 0, 0, 1, 1]]
    data = _stats(tmp_path, write_scores_long(tmp_path / "few.csv", learners, [f"u{i:02d}" for i in range(12)], seed=3))
    # totals 5,4,4 | 3,2,2,1,2,0,0,1,3: upper = the first three whole; lower = totals 0,0,1 and 1 tied (two learners)
    item5 = data["items"][kit.qid(4)]
    assert item5["options"]["a"]["upper"] == 1  # only the learner with 5 of 5 got item 5 right among the top three
    assert item5["options"]["a"]["lower"] == 0.5  # the two learners tied on 1 share the lower group's last place
    assert item5["discrimination_index"] == pytest.approx((1 - 0.5) / 3, abs=1e-4)
