"""The report's pictures (matplotlib, PNG): a facility / point-biserial scatter of every item, and per
choice item its options' shares among the lower, middle and upper thirds of learners.

Rendered with the Agg backend and no date or software stamp in the file, so the same answers give the
same bytes. Flagged items are labelled by id on the scatter; threshold lines show where the checks bite.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from pipeline.stats.ctt import group_size  # noqa: E402
from pipeline.stats.match import ItemKey  # noqa: E402
from pipeline.stats.store import ItemRecord  # noqa: E402

METADATA = {"Software": None}
RIGHT, WRONG, DEAD = "#1b7837", "#9e9ac8", "#d6604d"


def scatter(path: Path, rows: list[tuple[str, ItemRecord, list[str]]], easy: float, hard: float, negative: float) -> Path:
    """x: facility, y: corrected point-biserial; one dot per item, red when a check flags it."""
    fig, ax = plt.subplots(figsize=(7.5, 5.0), dpi=110)
    plotted = [(qid, r, codes) for qid, r, codes in rows if r.facility is not None and r.point_biserial is not None]
    for flagged in (False, True):
        pts = [(r.facility, r.point_biserial) for _, r, codes in plotted if bool(codes) == flagged]
        if pts:
            ax.scatter(*zip(*pts, strict=True), s=36 if flagged else 24, c=DEAD if flagged else "#4575b4", alpha=0.85,
                       label="flagged" if flagged else "no finding", zorder=3)
    _label(ax, sorted((r.facility, r.point_biserial, qid) for qid, r, codes in plotted if codes))
    low, high = min([negative - 0.1] + [r.point_biserial for _, r, _ in plotted]) - 0.05, max([0.8] + [r.point_biserial for _, r, _ in plotted]) + 0.05
    ax.set_ylim(low, high)
    ax.axhspan(low, negative, color=DEAD, alpha=0.08, zorder=0)
    ax.axvspan(-0.02, hard, color="#fdae61", alpha=0.10, zorder=0)
    ax.axvspan(easy, 1.02, color="#fdae61", alpha=0.10, zorder=0)
    ax.text(hard / 2, high, "too hard", fontsize=8, va="top", ha="center", color="#555")
    ax.text(1.01, high, "too easy", fontsize=8, va="top", ha="right", color="#555")
    ax.text(0.5, low, "likely mis-keyed", fontsize=8, va="bottom", ha="center", color="#555")
    ax.set_xlim(-0.02, 1.02)
    ax.set_xlabel("facility (share answering right)")
    ax.set_ylabel("corrected item-rest point-biserial")
    ax.set_title(f"{len(plotted)} items: facility and discrimination")
    ax.grid(alpha=0.3)
    if plotted:
        ax.legend(loc="lower left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, format="png", metadata=METADATA)
    plt.close(fig)
    return path


# where a label may go, in points from its dot: right above, right below, left above, left below
_SPOTS = ((6, 5), (6, -12), (-44, 5), (-44, -12))


def _label(ax, points: list[tuple[float, float, str]]) -> None:
    """Label each flagged dot on the side away from its nearest flagged neighbour, at the first spot no earlier
    label took (labels about 0.08 wide and 0.05 high in data units), so a label never reads as another dot's."""
    taken: list[tuple[float, float]] = []
    for x, y, qid in points:
        others = [(abs(u - x) + abs(v - y), u) for u, v, other in points if other != qid]
        left_first = bool(others) and min(others)[1] > x
        spots = sorted(_SPOTS, key=lambda s: (s[0] > 0) if left_first else (s[0] < 0))
        dx, dy = spots[0]
        for dx, dy in spots:
            spot = (x + dx / 600, y + dy / 400)
            if all(abs(spot[0] - u) > 0.08 or abs(spot[1] - v) > 0.05 for u, v in taken):
                break
        taken.append((x + dx / 600, y + dy / 400))
        ax.annotate(qid, (x, y), textcoords="offset points", xytext=(dx, dy), fontsize=8)


def option_bars(path: Path, key: ItemKey, record: ItemRecord) -> Path:
    """Per option, the share choosing it among the lower 27%, all learners and the upper 27%: where the
    strongest learners go shows at a glance (a mis-keyed item's upper bar stands on a wrong option)."""
    options, stats = key.options, record.options or {}
    group = group_size(record.n)
    labels = [textwrap.fill(f"{o.letter}{' (key)' if o.correct else ''}  {' '.join(o.text.split())}", 34) for o in options]
    lines = sum(label.count("\n") + 1 for label in labels)
    fig, ax = plt.subplots(figsize=(7.5, 0.25 * lines + 0.55 * len(options) + 1.4), dpi=110)
    height = 0.26
    for i, o in enumerate(options):
        s = stats.get(o.id)
        if s is None:
            continue
        bars = ((-height, s.lower / group, "#c6dbef", "lower 27%"), (0.0, s.share, RIGHT if o.correct else WRONG, "all learners"),
                (height, s.upper / group, "#08306b", "upper 27%"))
        if record.source != "responses":  # a platform's counts: no per-learner rows, so no upper and lower groups
            bars = bars[1:2]
        for offset, share, colour, label in bars:
            ax.barh(i + offset, share, height=height * 0.95, color=colour, zorder=3, label=label if i == 0 else None)
        ax.text(max(s.share, s.upper / group, s.lower / group) + 0.01, i, f"{s.share:.0%} of {record.n}" + ("  (dead)" if not o.correct and s.share < 0.05 else ""),
                va="center", fontsize=8)
    ax.set_yticks(list(range(len(options))), labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, 1.2)
    ax.set_xlabel("share choosing the option (middle bar: all learners, green when it is the key)" if record.source == "responses" else
                  f"share choosing the option (green: the key; {record.source} gives no upper and lower groups)")
    title = f"{key.id}: n = {record.n}" + (f", facility {record.facility:.2f}" if record.facility is not None else "")
    ax.set_title(title + (f", point-biserial {record.point_biserial:+.2f}" if record.point_biserial is not None else ""), fontsize=10, pad=20)
    ax.grid(axis="x", alpha=0.3)
    ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), ncol=3, fontsize=7, frameon=False)  # above the bars, never on a label
    fig.tight_layout()
    fig.savefig(path, format="png", metadata=METADATA)
    plt.close(fig)
    return path
