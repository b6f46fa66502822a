"""From the answers in the engine to the item statistics record: first attempts, classical statistics, the 2PL fit.

Items with per-learner answers are computed here; an item known only from a platform's own statistics
(a Moodle Statistics or Canvas item analysis download) keeps the platform's numbers, marked with its name.
"""

from __future__ import annotations

import concurrent.futures
import datetime as dt

from pipeline.stats import columnar, ctt, irt, variant_pooling
from pipeline.stats.intake import Intake
from pipeline.stats.itemhash import answered_hash, item_hash
from pipeline.stats.match import QuestionIndex
from pipeline.stats.records import PlatformItem
from pipeline.stats.store import ABOUT, FORMAT, FileRecord, ItemRecord, ItemStatsFile, OptionRecord

DIGITS = 4


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, DIGITS)


def _weight(value: float) -> int | float:
    """A group's count as written: whole learners as an integer, a share of tied learners rounded."""
    return int(value) if value == int(value) else round(value, DIGITS)


def analyse(exam_id: str, con, intake: Intake, index: QuestionIndex, today: dt.date, all_attempts: bool = False,
            since: dt.date | None = None) -> ItemStatsFile:
    """The record of the answers in the engine (`pipeline.stats.intake`), with the platforms' own items beside them."""
    parsed = intake.parsed
    keys = list(index.keys.values())
    items: dict[str, ItemRecord] = {}
    alpha, alpha_learners, note, learners, counted, later, done = None, 0, "", 0, 0, 0, None
    if intake.answers:
        number = {qid: i for i, qid in enumerate(index.keys)}
        units = {number[v]: number[vids[0]] for vids in index.variants.values() for v in vids}  # alpha over questions
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            fitting: list[tuple[concurrent.futures.Future, int]] = []

            def start_fit(present: list[int]) -> None:
                # the sample's matrix is read now (the connection serves one thread); the fit, in numpy and mirt's
                # compiled kernels (which let go of Python's lock), runs beside the engine's sums
                scores, learners = columnar.score_matrix(con, present, irt.MAX_LEARNERS)
                fitting.append((pool.submit(irt.fit_2pl, scores, [keys[i].id for i in present], learners), learners))

            done = columnar.compute(con, keys, all_attempts, units, start_fit, by_grade=not intake.scored)
            (fit, learners), = fitting
            fits, note = fit.result()
        for qid, stats in done.items.items():
            items[qid] = _record(stats, item_hash(index.keys[qid]), done.alpha_without[qid], fits.get(qid))
        alpha, alpha_learners, counted, later = done.test.alpha, done.test.alpha_learners, done.answers, done.later
    for item in (i for p in parsed for i in p.items):
        qid = index.counted_as(item.question_id)  # a varied question's own id is its variant 1
        if qid not in items:
            items[qid] = _platform_record(item, item_hash(index.keys[qid]), index)
    for qid, figures in variant_pooling.pooled(con if done else None, index, list(index.keys), items).items():
        items[qid] = _pooled_record(figures, answered_hash(index, qid), done.alpha_without if done else {})
    files = [FileRecord(name=p.path.name, format=p.format, rows=p.rows, answers=p.answered + len(p.items), unmatched=p.unmatched_count)
             for p in parsed]
    return ItemStatsFile(about=ABOUT, format=FORMAT, exam=exam_id, date=today, first_attempts_only=not all_attempts, files=files,
                         learners=learners, answers=counted, later_attempts=later, alpha=_round(alpha), alpha_learners=alpha_learners,
                         irt_note=note, items=dict(sorted(items.items())), since=since, before_since=intake.before_since if since else None)


def _record(s: ctt.ItemStats, digest: str, alpha_without: float | None, fit: dict | None) -> ItemRecord:
    options = None
    if s.options is not None:
        options = {oid: OptionRecord(count=o.count, share=_round(o.share), upper=_weight(o.upper), lower=_weight(o.lower),
                                     point_biserial=_round(o.point_biserial), correct=o.correct) for oid, o in s.options.items()}
    return ItemRecord(hash=digest, source=s.source, n=s.n, facility=_round(s.facility), point_biserial=_round(s.point_biserial),
                      discrimination_index=_round(s.discrimination_index), alpha_if_deleted=_round(alpha_without), options=options,
                      strongest_choice=s.strongest_choice, irt={k: _round(v) for k, v in fit.items()} if fit else None)


def _platform_record(item: PlatformItem, digest: str, index: QuestionIndex) -> ItemRecord:
    options = None
    if item.option_counts:
        total = sum(item.option_counts.values()) or 1
        key = index.keys[item.question_id]
        options = {o.id: OptionRecord(count=item.option_counts.get(o.id, 0), share=_round(item.option_counts.get(o.id, 0) / total), upper=0,
                                      lower=0, point_biserial=_round((item.option_point_biserials or {}).get(o.id)), correct=o.correct)
                   for o in key.options}
    return ItemRecord(hash=digest, source=item.platform, n=item.n, facility=_round(item.facility), point_biserial=_round(item.discrimination),
                      options=options)


def _pooled_record(figures: dict, digest: str, alpha_without: dict[str, float | None]) -> ItemRecord:
    """A varied question's record: its variants' answers pooled (`pipeline.stats.variant_pooling.pooled`), and the test's alpha
    without the question (each of its variants has it: alpha is over questions)."""
    without = next((alpha_without[v] for v in figures["variants"] if v in alpha_without), None)
    return ItemRecord(hash=digest, source=figures["source"], n=figures["n"], facility=_round(figures["facility"]),
                      point_biserial=_round(figures["point_biserial"]), alpha_if_deleted=_round(without), variants=figures["variants"])
