"""Classical test theory over first attempts: the definitions, and the in-memory reference implementation.

`stats` computes these figures in the engine (`pipeline.stats.columnar`, sums over a table that is never
Python rows); the functions here compute them from a learners x items numpy matrix as `stats` did before, and
are kept as the reference the engine is tested against (tests/test_stats_engine.py, to 1e-9). The records
(`ItemStats`, `OptionStats`, `TestStats`) and the group rule (`GROUP`, `group_size`) are shared by both.

Per item: facility (mean score), the corrected item-rest point-biserial (Pearson's r between the item's
score and the learner's score on the other items, so the item does not correlate with itself), the
discrimination index (share right in the upper 27% by total score minus the lower 27%, Kelley's groups),
and per option of a choice question how often it was chosen, by the upper and lower groups too, and its
own point-biserial against the rest score.

The groups are tie-aware: a group holds round(27% of n) learners' worth of weight; learners strictly past
the cut count whole, and the learners tied on the total score at the cut share what is left equally (three
tied for two places count 2/3 each). So D and the groups' counts depend only on the scores, never on
learners' names or the order of the rows (sorting ties by name let pseudonyms decide the groups: D moved by
up to 0.078 on LSAT-6/7 when learners were renamed). With no tie at the cut the groups are the plain ones. Per test: Cronbach's alpha, and alpha with each item left
out, over the learners who answered every item (listwise; their number is reported).

Learners who did not see an item (random questions, several quizzes) are missing for it, not wrong.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats as sps

from pipeline.stats.match import ItemKey
from pipeline.stats.records import Answer

GROUP = 0.27


@dataclass(frozen=True)
class OptionStats:
    count: int
    share: float
    upper: float  # chosen by this much of the upper group's weight (tied learners at the cut count fractionally)
    lower: float
    point_biserial: float | None
    correct: bool


@dataclass(frozen=True)
class ItemStats:
    id: str
    n: int
    facility: float | None
    point_biserial: float | None
    discrimination_index: float | None
    options: dict[str, OptionStats] | None = None
    strongest_choice: str | None = None  # the option the upper group chose most
    alpha_if_deleted: float | None = None
    source: str = "responses"  # or the platform whose statistics these are


@dataclass(frozen=True)
class TestStats:
    learners: int
    items: int
    alpha: float | None
    alpha_learners: int  # learners who answered every item


@dataclass(frozen=True)
class Matrix:
    learners: list[str]
    items: list[str]
    scores: np.ndarray  # learners x items, NaN where not answered
    picks: dict[tuple[str, str], np.ndarray]  # (item, option) -> learners who chose it (bool per learner)


def matrix(answers: list[Answer], items: list[str]) -> Matrix:
    learners = sorted({a.learner for a in answers})
    row = {name: i for i, name in enumerate(learners)}
    col = {qid: j for j, qid in enumerate(items)}
    scores = np.full((len(learners), len(items)), np.nan)
    rows, cols, values = zip(*((row[a.learner], col[a.question_id], a.score) for a in answers), strict=True) if answers else ((), (), ())
    scores[list(rows), list(cols)] = values
    chosen: dict[tuple[str, str], list[int]] = {}
    for a in answers:
        for option in a.choices or ():
            chosen.setdefault((a.question_id, option), []).append(row[a.learner])
    picks = {}
    for pair, members in chosen.items():
        picks[pair] = np.zeros(len(learners), dtype=bool)
        picks[pair][members] = True
    return Matrix(learners, items, scores, picks)


def _r(x: np.ndarray, y: np.ndarray) -> float | None:
    if len(x) < 3 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return None
    return float(sps.pearsonr(x, y).statistic)


def group_size(n: int) -> int:
    """Places in each of the upper and lower groups of n learners: 27% of them, at least one."""
    return max(1, int(round(GROUP * n)))


def _groups(totals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Weights (one per learner of `totals`) of the lower and upper 27% by total score, each summing to the
    group's size; the learners tied at a cut share its remaining places equally."""
    size = group_size(len(totals))
    return _bottom(totals, size), _bottom(-totals, size)


def _bottom(totals: np.ndarray, size: int) -> np.ndarray:
    """Weight 1 for the learners below the size-th lowest total, the rest of `size` spread over those tied at it."""
    cut = np.sort(totals)[size - 1]
    below = totals < cut
    tied = totals == cut
    weights = below.astype(float)
    weights[tied] = (size - below.sum()) / tied.sum()
    return weights


def _weighted(weights: np.ndarray, values: np.ndarray) -> float:
    """sum(weights * values), added in sorted order so that the learners' order cannot move the last digit."""
    return float(np.sort(weights * values).sum())


def item_stats(m: Matrix, j: int, key: ItemKey) -> ItemStats:
    """One item's statistics (its options' from the matrix's picks)."""
    totals = np.nansum(m.scores, axis=1)
    answered = np.flatnonzero(~np.isnan(m.scores[:, j]))
    if len(answered) == 0:
        return ItemStats(key.id, 0, None, None, None)
    item = m.scores[answered, j]
    rest = totals[answered] - item
    lower, upper = _groups(totals[answered])
    d = float((_weighted(upper, item) - _weighted(lower, item)) / group_size(len(answered))) if len(answered) >= 4 else None
    options, strongest = _options(m, answered, rest, lower, upper, key)
    return ItemStats(key.id, len(answered), float(item.mean()), _r(item, rest), d, options, strongest)


def _options(m, answered, rest, lower, upper, key: ItemKey) -> tuple[dict[str, OptionStats] | None, str | None]:
    if not key.is_choice:
        return None, None
    none = np.zeros(len(m.learners), dtype=bool)
    picks = {o.id: m.picks.get((key.id, o.id), none)[answered] for o in key.options}
    options = {}
    for o in key.options:
        mask = picks[o.id]
        options[o.id] = OptionStats(int(mask.sum()), float(mask.mean()), _weighted(upper, mask), _weighted(lower, mask),
                                    _r(mask.astype(float), rest), o.correct)
    ranked = sorted(key.options, key=lambda o: (-options[o.id].upper, -options[o.id].count, o.letter))
    return options, ranked[0].id if options[ranked[0].id].upper else None


def alpha(scores: np.ndarray) -> float | None:
    """Cronbach's alpha of complete rows: k/(k-1) * (1 - sum of item variances / variance of totals)."""
    complete = scores[~np.isnan(scores).any(axis=1)]
    k = complete.shape[1]
    if k < 2 or len(complete) < 3:
        return None
    total_var = complete.sum(axis=1).var(ddof=1)
    if total_var == 0:
        return None
    return float(k / (k - 1) * (1 - complete.var(axis=0, ddof=1).sum() / total_var))


def test_stats(m: Matrix) -> tuple[TestStats, list[float | None]]:
    """The test's alpha, and alpha with each item left out (in item order)."""
    whole = alpha(m.scores)
    without = [alpha(np.delete(m.scores, j, axis=1)) for j in range(len(m.items))]
    complete = int((~np.isnan(m.scores).any(axis=1)).sum())
    return TestStats(len(m.learners), len(m.items), whole, complete), without
