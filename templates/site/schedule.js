/* Scheduling with FSRS: ts-fsrs (assets/ts-fsrs.js, the npm package pinned in package.json, copied by the build;
   its UMD build defines window.FSRS). FSRS-6 with its default parameters, learning steps of 1 and 10 minutes
   and a relearning step of 10 minutes (the defaults of ts-fsrs and py-fsrs alike), no fuzz: the same answers at
   the same times give the same schedule, which tests/test_site_fsrs.py checks against py-fsrs.
   Cards are kept as plain JSON (schema/progress.py FsrsCard): times as ISO strings. */
(function () {
  "use strict";
  var P = window.ExamPrep = window.ExamPrep || {};
  var F = window.FSRS;
  if (!F) { return; }
  var schedulers = {};
  var FIELDS = ["stability", "difficulty", "elapsed_days", "scheduled_days", "learning_steps", "reps", "lapses", "state"];

  function scheduler(retention) {
    var key = String(retention);
    if (!Object.prototype.hasOwnProperty.call(schedulers, key)) {
      schedulers[key] = F.fsrs(F.generatorParameters({request_retention: retention, enable_fuzz: false, enable_short_term: true}));
    }
    return schedulers[key];
  }
  function stored(card) {
    var out = {due: card.due.toISOString(), last_review: card.last_review ? card.last_review.toISOString() : null};
    FIELDS.forEach(function (f) { out[f] = card[f] || 0; });
    return out;
  }
  function live(saved) {
    var card = {due: new Date(saved.due), last_review: saved.last_review ? new Date(saved.last_review) : undefined};
    FIELDS.forEach(function (f) { card[f] = saved[f]; });
    return card;
  }
  function endOfDay(now) {
    var end = new Date(now.getTime());
    end.setHours(24, 0, 0, 0);
    return end;
  }

  P.schedule = {
    AGAIN: 1, HARD: 2, GOOD: 3, EASY: 4,
    NEW: 0, LEARNING: 1, REVIEW: 2, RELEARNING: 3,
    /* Rate a card (null: a new one) at `now`; returns its new state and the state it had before. */
    rate: function (saved, rating, now, retention) {
      var card = saved ? live(saved) : F.createEmptyCard(now);
      var result = scheduler(retention).next(card, now, rating);
      return {fsrs: stored(result.card), before: card.state};
    },
    /* The probability of recalling the card now (0 for a new one). */
    retrievability: function (saved, now, retention) {
      if (!saved || saved.state === 0) { return 0; }
      return scheduler(retention).get_retrievability(live(saved), now, false);
    },
    /* Due in this session: a learning step whose time has come, or a review due before the day ends. */
    isDue: function (saved, now) {
      if (!saved) { return false; }
      var due = new Date(saved.due);
      return saved.state === 2 ? due < endOfDay(now) : due <= now;
    },
    inLearning: function (saved) { return !!saved && (saved.state === 1 || saved.state === 3); }
  };
}());
