/* Importing a progress file without losing what the browser knows better: the file (already fitted to this build by
   store.importText) and the browser's progress are merged card by card, and the card last reviewed or answered later
   wins, with its own review log. So an older export never replaces newer reviews, and a newer one (another browser)
   brings its reviews in. Answers and mock exam attempts are kept from both sides (each once).
   plan() works out what an import would change, for the learner to read and confirm, before anything is saved. */
(function () {
  "use strict";
  var P = window.ExamPrep;
  if (!P || !P.store) { return; }

  /* When the card was last touched: its last answer or its last FSRS review, whichever is later (ISO strings sort). */
  function touched(card) {
    var times = [card && card.last && card.last.time, card && card.fsrs && card.fsrs.last_review].filter(Boolean);
    return times.map(function (t) { return new Date(t).toISOString(); }).sort().pop() || "";
  }
  function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }
  function once(list, key) {
    var seen = Object.create(null);
    return list.filter(function (item) { var k = key(item); if (seen[k]) { return false; } seen[k] = true; return true; });
  }
  /* Oldest first; entries of one moment (a page's answers checked in one second) by question id, so either side's order gives one result. */
  function byTime(field) {
    return function (a, b) { return Date.parse(a[field]) - Date.parse(b[field]) || (a.card_id < b.card_id ? -1 : a.card_id > b.card_id ? 1 : 0); };
  }

  /* {doc, report}: report.added (only in the file), replaced (newer in the file), newer (newer in this browser than in
     the file: the browser's kept), kept (the same on both sides, or only in the browser), all lists of question ids. */
  function plan(browser, file) {
    var doc = P.store.empty(), report = {added: [], replaced: [], newer: [], kept: []}, from = P.dict();
    var ids = Object.keys(browser.cards).concat(Object.keys(file.cards).filter(function (id) { return !P.own(browser.cards, id); }));
    var at = function (id) { var i = window.EXAM_DATA.order.indexOf(id); return i < 0 ? Infinity : i; };
    ids.sort(function (a, b) { return at(a) - at(b) || (a < b ? -1 : a > b ? 1 : 0); });  // in the notes' order
    ids.forEach(function (id) {
      var here = P.own(browser.cards, id) ? browser.cards[id] : null, there = P.own(file.cards, id) ? file.cards[id] : null;
      var side = !there || same(here, there) ? "browser" : !here || touched(there) > touched(here) ? "file" : "browser";
      var list = !there || same(here, there) ? report.kept : !here ? report.added : side === "file" ? report.replaced : report.newer;
      list.push(id);
      from[id] = side === "file" ? file : browser;
      doc.cards[id] = from[id].cards[id];
    });
    var ownLog = function (side) { return side.log.filter(function (r) { return from[r.card_id] === side; }); };
    doc.log = ownLog(browser).concat(ownLog(file)).sort(byTime("review_time"));
    doc.answers = once(browser.answers.concat(file.answers), function (a) { return [a.card_id, a.time, a.mode].join("\u0000"); }).sort(byTime("time"));
    doc.mocks = once(browser.mocks.concat(file.mocks), function (m) { return m.started; }).sort(byTime("started"));
    var fresh = !Object.keys(browser.cards).length && !browser.log.length && !browser.mocks.length;
    doc.settings = JSON.parse(JSON.stringify(fresh ? file.settings : browser.settings));
    if (!doc.settings.learner && file.settings.learner) { doc.settings.learner = file.settings.learner; }
    return {doc: doc, report: report};
  }

  P.merge = {plan: plan, touched: touched};
}());
