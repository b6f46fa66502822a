"""An optional 2PL IRT fit, with the `mirt` package, when enough learners answered.

Why mirt (PyPI `mirt`, 1.2): maintained (2026 releases), needs only numpy and scipy at run time (its
Rust kernels ship in the wheel), fits the 2PL by marginal maximum likelihood (EM over Gauss-Hermite
quadrature) and takes missing answers as NaN. girth, the package the issue names, last released in 2021.

Scores are made dichotomous (full marks = 1). Items everyone got right or wrong are left out of the fit
(their parameters are not identified). A fit that fails or does not converge leaves every item's `irt`
empty with the reason, never the run.
"""

from __future__ import annotations

import numpy as np

MIN_LEARNERS = 200
# The fit's cost grows with the learners (5 s for 100,000 x 100 items, 0.7 s for 10,000): past this many it is
# fitted on a fixed sample of them (`columnar.score_matrix`), ample for 2PL parameters of a practice bank.
MAX_LEARNERS = 10_000


def fit_2pl(scores: np.ndarray, items: list[str], learners_in_all: int | None = None) -> tuple[dict[str, dict[str, float]], str]:
    """{item: {"a": discrimination, "b": difficulty}} and a note ("" when fitted on every learner)."""
    learners = int((~np.isnan(scores)).any(axis=1).sum())
    if learners < MIN_LEARNERS:
        return {}, f"no 2PL fit: {learners} learners, it needs at least {MIN_LEARNERS}"
    binary = np.where(np.isnan(scores), np.nan, (scores >= 1.0).astype(float))
    keep = [j for j in range(binary.shape[1]) if 0 < np.nanmean(binary[:, j]) < 1]
    if len(keep) < 3:
        return {}, "no 2PL fit: fewer than 3 items with both right and wrong answers"
    try:
        import mirt

        # SQUAREM-accelerated EM: the same estimates (to about 1e-4) in a quarter of the iterations
        result = mirt.fit_mirt(binary[:, keep], model="2PL", compute_standard_errors=False, accelerate="squarem")
    except Exception as exc:  # the fit is an extra: any failure of the library is reported, not raised
        return {}, f"no 2PL fit: mirt failed ({type(exc).__name__}: {exc})"
    if not result.converged:
        return {}, "no 2PL fit: mirt did not converge"
    a = np.asarray(result.model.discrimination, dtype=float).ravel()
    b = np.asarray(result.model.difficulty, dtype=float).ravel()
    sampled = f"2PL fitted on a fixed sample of {learners:,} of the {learners_in_all:,} learners" if (learners_in_all or 0) > learners else ""
    return {items[j]: {"a": float(a[i]), "b": float(b[i])} for i, j in enumerate(keep)}, sampled
