/* The learner's progress: one versioned JSON document per exam in localStorage (schema/progress.py, published as
   assets/progress.schema.json), and the rules that make its scores honest:
   - a session is the learner's local day; only the first answer to a card in a session counts for the score;
   - an answer rates the card in FSRS when it is the session's first, or when a learning step has come due
     (wrong = Again, right = Good; self-graded answers give their own rating); a repeat the same day rates nothing;
   - showing the answer before answering is an answer rated Again.
   Maps keyed by question id are made without a prototype, and read only through own(): an id such as
   `constructor` or `toString` is a question like any other, never a built-in property. */
(function () {
  "use strict";
  var P = window.ExamPrep = window.ExamPrep || {};
  var DATA = window.EXAM_DATA;
  if (!DATA || !P.schedule) { return; }
  var FORMAT = "exam-prep-progress", RETENTION = 0.9;

  function own(map, key) { return !!map && Object.prototype.hasOwnProperty.call(map, key); }
  function dict(from) {
    var map = Object.create(null);
    if (from && typeof from === "object") { Object.keys(from).forEach(function (k) { map[k] = from[k]; }); }
    return map;
  }
  function localDay(now) {
    function two(n) { return (n < 10 ? "0" : "") + n; }
    return now.getFullYear() + "-" + two(now.getMonth() + 1) + "-" + two(now.getDate());
  }
  function empty() {
    return {format: FORMAT, version: DATA.progressVersion, exam: DATA.exam, exported: null, settings: {retention: RETENTION},
            cards: dict(), log: [], answers: [], mocks: []};
  }
  function question(id) { return own(DATA.questions, id) ? DATA.questions[id] : null; }

  /* Keep the cards whose question is here unchanged (same content hash), their log, and the answers given to the
     questions as they are here (a mock exam answer may be to a question never practised: it has no card). */
  function reconcile(doc) {
    var fresh = empty(), report = {kept: 0, changed: [], gone: []}, cards = dict(doc.cards);
    Object.keys(cards).forEach(function (id) {
      var q = question(id);
      if (!q) { report.gone.push(id); return; }
      if (!cards[id] || cards[id].hash !== q.hash) { report.changed.push(id); return; }
      fresh.cards[id] = cards[id];
      report.kept += 1;
    });
    var matches = function (entry) { return own(fresh.cards, entry.card_id) && entry.hash === fresh.cards[entry.card_id].hash; };
    fresh.log = (doc.log || []).filter(matches);
    fresh.answers = (doc.answers || []).filter(function (a) { var q = question(a.card_id); return !!q && a.hash === q.hash; });
    fresh.mocks = doc.mocks || [];
    var retention = doc.settings && Number(doc.settings.retention);
    fresh.settings.retention = retention >= 0.7 && retention <= 0.99 ? retention : RETENTION;
    if (doc.settings && /^u-[0-9a-f]{8}$/.test(String(doc.settings.learner))) { fresh.settings.learner = doc.settings.learner; }
    return {doc: fresh, report: report};
  }

  /* The browser's copy; a newer build of the site (same storage) reconciles it as an import would. */
  function load() {
    try {
      var doc = JSON.parse(window.localStorage.getItem(DATA.storageKey));
      if (!doc || doc.format !== FORMAT || doc.version !== DATA.progressVersion) { return empty(); }
      return reconcile(doc).doc;
    } catch (e) { return empty(); }
  }
  /* True when stored; false when the browser refused (storage off, or over its quota: then the stored copy is as it was). */
  function save(doc) {
    try { window.localStorage.setItem(DATA.storageKey, JSON.stringify(doc)); return true; } catch (e) { return false; /* kept for this page only */ }
  }
  /* Why `doc` cannot be stored whole, before anything is written: over what browsers keep for one site (about 5 million
     characters in Chromium and Firefox, this site's other exams' progress included); null when it fits. */
  var QUOTA_CHARS = 5000000;
  function overQuota(doc) {
    var size = JSON.stringify(doc).length + DATA.storageKey.length, others = 0;
    try {
      for (var i = 0; i < window.localStorage.length; i += 1) {
        var key = window.localStorage.key(i);
        if (key !== DATA.storageKey) { others += key.length + (window.localStorage.getItem(key) || "").length; }
      }
    } catch (e) { return "this browser does not let the site store anything"; }
    if (size + others <= QUOTA_CHARS) { return null; }
    var mb = function (n) { return (n / 1e6).toFixed(1) + " million characters"; };
    return "the progress in it takes " + mb(size) + (others ? " (and the site's other progress " + mb(others) + ")" : "") +
      ", more than the " + mb(QUOTA_CHARS) + " a browser keeps for a site";
  }
  function card(doc, id) {
    if (!own(doc.cards, id)) { doc.cards[id] = {hash: question(id).hash, fsrs: null, last: null, session: null}; }
    return doc.cards[id];
  }

  /* Record an answer: result "right" | "wrong" | "revealed", rating 1-4. Returns {first, rated}. */
  function answer(doc, id, response, result, rating, now, variant) {
    var c = card(doc, id), day = localDay(now), time = now.toISOString();
    if (variant) { c.variant = variant; }  // which variant was shown last: review shows the next one
    var first = !c.session || c.session.day !== day;
    var rated = first || (P.schedule.inLearning(c.fsrs) && new Date(c.fsrs.due) <= now);
    if (rated) {
      var next = P.schedule.rate(c.fsrs, rating, now, doc.settings.retention);
      var review = {card_id: id, review_time: time, rating: rating, state: next.before, hash: c.hash};
      if (variant) { review.variant = variant; }
      doc.log.push(review);
      c.fsrs = next.fsrs;
    }
    if (first) {
      c.session = {day: day, result: result};
      var given = {card_id: id, time: time, response: response, score: result === "right" ? 1 : 0, mode: "practice", hash: c.hash};
      if (variant) { given.variant = variant; }
      doc.answers.push(given);
    }
    c.last = {response: response, result: result, rating: rated ? rating : null, time: time};
    return {first: first, rated: rated};
  }

  /* Showing the answer first: Again, but only when it would count (an answer already given today stays). */
  function reveal(doc, id, now) {
    var c = own(doc.cards, id) ? doc.cards[id] : null;
    var counts = !c || !c.session || c.session.day !== localDay(now) || (P.schedule.inLearning(c.fsrs) && new Date(c.fsrs.due) <= now);
    return counts ? answer(doc, id, null, "revealed", P.schedule.AGAIN, now) : {first: false, rated: false};
  }

  /* The first answers of `ids` in their latest sessions: {answered, right}. */
  function score(doc, ids) {
    var answered = 0, right = 0;
    ids.forEach(function (id) {
      var c = own(doc.cards, id) ? doc.cards[id] : null;
      if (c && c.session) { answered += 1; right += c.session.result === "right" ? 1 : 0; }
    });
    return {answered: answered, right: right};
  }

  /* Import a document (text) into this build: cards whose question is here with the same content hash are
     kept, a changed question starts over, a question no longer here is dropped. Throws an Error to show. */
  function importText(text) {
    var doc;
    try { doc = JSON.parse(text); } catch (e) { throw new Error("This file is not JSON: " + e.message); }
    if (!doc || doc.format !== FORMAT) { throw new Error("This file is not an exam-prep progress export."); }
    if (doc.version !== DATA.progressVersion) { throw new Error("This file is progress format version " + doc.version + "; this site reads version " + DATA.progressVersion + "."); }
    if (doc.exam !== DATA.exam) { throw new Error("This file is progress on exam " + doc.exam + ", not " + DATA.exam + "."); }
    checkProgress(doc);
    return reconcile(doc);
  }

  /* The published progress schema, before anything is kept (progress_check.js): one bad field would make every page throw. */
  function checkProgress(doc) {
    var problem = P.progressProblem ? P.progressProblem(doc) : "this page cannot check progress files";
    if (problem) { throw new Error("This file does not follow the progress format: " + problem + "."); }
  }

  function exportText(doc, now) {
    var copy = JSON.parse(JSON.stringify(doc));
    copy.exported = now.toISOString();
    return JSON.stringify(copy, null, 2) + "\n";
  }

  /* A cell a spreadsheet opens as text: one that starts with = + - @ tab or CR gets a leading ' (OWASP's rule against CSV
     injection: =HYPERLINK(...), +cmd|..., @SUM are never formulas), which `stats` takes off again (stats/csvfile.py). */
  function csvField(value) {
    var text = String(value);
    if (/^[=+\-@\t\r']/.test(text)) { text = "'" + text; }  // and a leading ' itself: stats takes exactly one off
    return /[",\r\n]/.test(text) ? "\"" + text.replace(/"/g, "\"\"") + "\"" : text;
  }
  function csv(rows) { return rows.map(function (r) { return r.map(csvField).join(","); }).join("\r\n") + "\r\n"; }
  /* A response in the bank's ids as the long format writes it (issue 23's README): option ids joined by |, matching
     pairs as p1=m2|p2=m1, sequence items in the learner's order, typed text as typed; parts one after another. */
  function partText(given) {
    if (given === null || given === undefined) { return ""; }
    if (Array.isArray(given)) { return given.join("|"); }
    if (typeof given === "object") { return Object.keys(given).sort().map(function (k) { return k + "=" + given[k]; }).join("|"); }
    return String(given);
  }
  function responseText(response) {
    return Array.isArray(response) ? response.map(partText).join("|") : partText(response);
  }
  /* The review log in the FSRS optimizer's columns: review_time in milliseconds, review_state before the review. */
  function reviewLogCsv(doc) {
    return csv([["card_id", "review_time", "review_rating", "review_state"]].concat(doc.log.map(function (r) {
      return [r.card_id, Date.parse(r.review_time), r.rating, r.state];
    })));
  }
  /* One row per first answer and mock answer, in the plain long format `stats` reads (issue 23). The learner is
     a pseudonym made once per browser (never a name: the file may be shared). An answer to a variant names it
     `<id>.vN`, as the LMS exports do, so `stats` grades it by that variant's own key. */
  function responsesCsv(doc) {
    if (!doc.settings.learner) {
      var bytes = window.crypto.getRandomValues(new Uint8Array(4));
      doc.settings.learner = "u-" + Array.prototype.map.call(bytes, function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
      save(doc);
    }
    return csv([["learner", "question_id", "response", "score", "time"]].concat(doc.answers.map(function (a) {
      return [doc.settings.learner, a.variant ? a.card_id + ".v" + a.variant : a.card_id, responseText(a.response), a.score, a.time];
    })));
  }

  P.own = own;
  P.dict = dict;
  P.localDay = localDay;
  P.store = {load: load, save: save, overQuota: overQuota, empty: empty, answer: answer, reveal: reveal, score: score, importText: importText,
             exportText: exportText, reviewLogCsv: reviewLogCsv, responsesCsv: responsesCsv, responseText: responseText};
}());
