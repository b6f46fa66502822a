"""ts-fsrs in the site and py-fsrs agree: a recorded review log replayed through the site's scheduler in chromium
(assets/schedule.js over the shipped assets/ts-fsrs.js, the clock fixed) and through the Python `fsrs` package
gives every card the same state, stability and difficulty, and a due time within a minute.

The log is made here, from a seeded random learner reviewing 24 cards over 40 days with py-fsrs, at the
libraries' shared defaults (FSRS-6 parameters, learning steps 1 and 10 minutes, relearning 10 minutes, retention
0.9, no fuzz). It steers clear of the two places where the libraries differ by design:
- elapsed days: ts-fsrs counts calendar days in UTC, py-fsrs whole 24-hour periods, so a card is never
  reviewed on a later day at an earlier time of day than its last review (both then count the same days);
- interval order: for a card in review, ts-fsrs makes Hard <= Good < Easy by at least a day each
  (hard = min(hard, good), good = max(good, hard + 1), easy = max(easy, good + 1)), py-fsrs takes each
  rating's interval as it comes; a rating whose interval that order would change is not given (Good instead,
  or Again when Good would change too).
Hard at the first learning step is (1 + 10) / 2 = 5.5 minutes: py-fsrs keeps 5.5, ts-fsrs rounds to 6, inside the
minute the comparison allows.
"""

from __future__ import annotations

import datetime as dt
import heapq
import random
from dataclasses import dataclass
from pathlib import Path

import fsrs  # py-fsrs, pinned in requirements.txt as a test dependency
import pytest

from tests.kit.studysite import OBJECTIVES, build_site, guarded_context, page_of

UTC = dt.UTC  # the same object as timezone.utc, which py-fsrs requires
START = dt.datetime(2026, 11, 2, 12, 0, tzinfo=UTC)
CARDS, DAYS, NEW_PER_DAY = 24, 40, 6
RATINGS = [(fsrs.Rating.Again, 0.15), (fsrs.Rating.Hard, 0.10), (fsrs.Rating.Good, 0.60), (fsrs.Rating.Easy, 0.15)]


@dataclass(frozen=True)
class Entry:
    card: int
    time: dt.datetime
    rating: int


def scheduler():
    return fsrs.Scheduler(enable_fuzzing=False)


def _interval_days(s, card, rating, when) -> int:
    return (s.review_card(card, rating, when)[0].due - when).days


def _order_keeps(s, card, rating, when) -> bool:
    """Whether ts-fsrs's interval order leaves this rating's interval as py-fsrs computes it (review state only)."""
    if card.state != fsrs.State.Review or rating == fsrs.Rating.Again:
        return True
    hard, good, easy = (_interval_days(s, card, r, when) for r in (fsrs.Rating.Hard, fsrs.Rating.Good, fsrs.Rating.Easy))
    ts_hard = min(hard, good)
    ts_good = max(good, ts_hard + 1)
    ts = {fsrs.Rating.Hard: ts_hard, fsrs.Rating.Good: ts_good, fsrs.Rating.Easy: max(easy, ts_good + 1)}
    return ts[rating] == {fsrs.Rating.Hard: hard, fsrs.Rating.Good: good, fsrs.Rating.Easy: easy}[rating]


def _not_before_time_of_day(card, due: dt.datetime) -> dt.datetime:
    """The earliest time from `due` at which both libraries count the same elapsed days since the last review."""
    if card.last_review is None or due.date() == card.last_review.date():
        return due
    same_time = dt.datetime.combine(due.date(), card.last_review.timetz())
    return max(due, same_time)


def recorded_log(seed: int = 22) -> tuple[list[Entry], dict[int, object]]:
    """The learner's reviews and py-fsrs's final cards: each day at noon UTC, new cards join, due ones are reviewed."""
    rng, s = random.Random(seed), scheduler()
    cards = {i: fsrs.Card(card_id=i) for i in range(CARDS)}
    log, started = [], 0
    for day in range(DAYS):
        opening = START + dt.timedelta(days=day)
        joining = list(range(started, min(CARDS, started + NEW_PER_DAY)))
        started += len(joining)
        ready = [(opening, i) for i in joining]
        ready += [(_not_before_time_of_day(c, max(c.due, opening)), i) for i, c in cards.items()
                  if c.last_review and c.due < opening + dt.timedelta(hours=12) and i not in joining]
        heapq.heapify(ready)
        clock = opening
        while ready:
            when, i = heapq.heappop(ready)
            clock = max(clock, when) + dt.timedelta(seconds=rng.randint(20, 90))
            card = cards[i]
            rating = rng.choices([r for r, _ in RATINGS], [w for _, w in RATINGS])[0]
            choices = [rating, fsrs.Rating.Good, fsrs.Rating.Easy, fsrs.Rating.Again]
            rating = next(r for r in choices if _order_keeps(s, card, r, clock))
            cards[i], _ = s.review_card(card, rating, clock)
            log.append(Entry(i, clock, int(rating)))
            nxt = cards[i].due
            if nxt < opening + dt.timedelta(hours=12):  # a learning step: again in this session
                heapq.heappush(ready, (_not_before_time_of_day(cards[i], nxt), i))
    return log, cards


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    return build_site(tmp_path_factory.mktemp("site"), *OBJECTIVES)


REPLAY = """log => {
  const S = window.ExamPrep.schedule, cards = {};
  for (const [id, time, rating] of log) {
    cards[id] = S.rate(cards[id] || null, rating, new Date(time), 0.9).fsrs;
  }
  return {cards: cards, now: new Date().toISOString()};
}"""


def test_ts_fsrs_in_the_site_and_py_fsrs_agree_on_a_recorded_log(browser, built):
    log, expected = recorded_log()
    assert len(log) >= 200 and len({e.card for e in log}) >= 20
    assert {e.rating for e in log} == {1, 2, 3, 4}
    site = built / "site"
    with guarded_context(browser, (site.as_uri() + "/",), timezone_id="UTC") as context:
        page = page_of(context)
        page.clock.install(time=START - dt.timedelta(hours=1))
        page.clock.pause_at(START)  # a fixed clock: nothing in the replay may read the real one
        page.goto((site / "review.html").as_uri())
        result = page.evaluate(REPLAY, [[e.card, e.time.isoformat(), e.rating] for e in log])
        assert page.errors == [] and context.offsite == []
    assert result["now"] == "2026-11-02T12:00:00.000Z"
    got = result["cards"]
    assert set(map(int, got)) == set(expected)
    for i, py in expected.items():
        ts = got[str(i)]
        assert ts["state"] == int(py.state), i
        assert ts["stability"] == pytest.approx(py.stability, rel=1e-6, abs=1e-6), i
        assert ts["difficulty"] == pytest.approx(py.difficulty, rel=1e-6, abs=1e-6), i
        due = dt.datetime.fromisoformat(ts["due"].replace("Z", "+00:00"))
        assert abs((due - py.due).total_seconds()) <= 60, (i, due, py.due)
        assert ts["reps"] == sum(1 for e in log if e.card == i), i


EDGE = """times => {
  const S = window.ExamPrep.schedule;
  let card = null;
  for (const time of times) { card = S.rate(card, 3, new Date(time), 0.9).fsrs; }
  return card;
}"""


def test_the_edge_avoided_is_real_a_later_day_at_an_earlier_hour(browser, built):
    """Reviewed 13:30 and 13:40 (learning, then review: due two days on), then on day 2 at 12:00: py-fsrs counts one
    24-hour period, ts-fsrs two calendar days, so the two stabilities part. The log above never does this."""
    times = [START + dt.timedelta(hours=1, minutes=30), START + dt.timedelta(hours=1, minutes=40), START + dt.timedelta(days=2)]
    s, card = scheduler(), fsrs.Card(card_id=1)
    for when in times:
        card, _ = s.review_card(card, fsrs.Rating.Good, when)
    site = built / "site"
    with guarded_context(browser, (site.as_uri() + "/",), timezone_id="UTC") as context:
        page = page_of(context)
        page.goto((site / "review.html").as_uri())
        ts = page.evaluate(EDGE, [t.isoformat() for t in times])
    assert (times[2] - times[1]).days == 1 and (times[2].date() - times[1].date()).days == 2
    assert ts["elapsed_days"] == 2 and ts["state"] == int(card.state) == 2
    assert ts["stability"] != pytest.approx(card.stability, rel=1e-3)
