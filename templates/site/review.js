/* Review mode: one question at a time, in the order FSRS and the objectives call for.
   The queue: cards due now first (learning steps whose time has come, reviews due today), earliest first; then new
   cards, taken in turn from each objective (outline order, or weakest first), within an objective in a fixed mix
   of their ids; then spread so that no two questions in a row are on the same term, where another order allows.
   Answers go through site.js like on any page, so the rules of store.js apply (first answer = rating). */
(function () {
  "use strict";
  var P = window.ExamPrep, DATA = window.EXAM_DATA;
  var stage = document.getElementById("review-stage");
  if (!P || !P.refresh || !stage) { return; }
  var deck = document.querySelector(".review-deck"), next = document.getElementById("review-next");
  var status = document.getElementById("review-status"), orderBox = document.getElementById("review-order");
  var retentionBox = document.getElementById("review-retention"), current = null, shown = [];

  function mix(id) {  // FNV-1a: a fixed, id-seeded order within an objective (source order would give answers away)
    var h = 2166136261;
    for (var i = 0; i < id.length; i += 1) { h ^= id.charCodeAt(i); h = Math.imul(h, 16777619) >>> 0; }
    return h;
  }
  function objectiveOrder(doc, order, now) {
    var list = Object.keys(DATA.objectives);
    list.sort(function (a, b) { return DATA.order.indexOf(DATA.objectives[a].questions[0]) - DATA.order.indexOf(DATA.objectives[b].questions[0]); });
    if (order !== "weakest") { return list; }
    var weak = {};
    list.forEach(function (o) { weak[o] = P.mastery(doc, o, now).retained; });
    return list.slice().sort(function (a, b) { return weak[a] - weak[b] || list.indexOf(a) - list.indexOf(b); });
  }
  function shares(a, b) {
    var ta = DATA.questions[a].topics, tb = DATA.questions[b].topics;
    return ta.some(function (t) { return tb.indexOf(t) >= 0; });
  }
  /* Keep the order, but never two on one term in a row while another question can go between. */
  function spread(list, before) {
    var out = [], pool = list.slice(), last = before || null;
    while (pool.length) {
      var at = 0;
      while (at < pool.length && last && shares(last, pool[at])) { at += 1; }
      if (at === pool.length) { at = 0; }
      last = pool.splice(at, 1)[0];
      out.push(last);
    }
    return out;
  }
  function queue(doc, now, order, shown) {
    var before = shown && shown.length ? shown[shown.length - 1] : null;
    var cards = doc.cards, due = [], fresh = {}, objectives = objectiveOrder(doc, order, now), rank = {};
    objectives.forEach(function (o, i) { rank[o] = i; fresh[o] = []; });
    DATA.order.forEach(function (id) {
      var c = P.own(cards, id) ? cards[id] : null;
      if (c && c.fsrs) {
        if (P.schedule.isDue(c.fsrs, now)) { due.push(id); }
      } else {
        fresh[DATA.questions[id].objective].push(id);
      }
    });
    due.sort(function (a, b) {
      var byObjective = order === "weakest" ? rank[DATA.questions[a].objective] - rank[DATA.questions[b].objective] : 0;
      return byObjective || Date.parse(cards[a].fsrs.due) - Date.parse(cards[b].fsrs.due) || DATA.order.indexOf(a) - DATA.order.indexOf(b);
    });
    objectives.forEach(function (o) { fresh[o].sort(function (a, b) { return mix(a) - mix(b); }); });
    var news = [], seen = {}, turn = objectives.slice();
    (shown || []).forEach(function (id, i) { seen[DATA.questions[id].objective] = i + 1; });
    // the round goes on from the objective practised least recently in this visit (never practised: outline order)
    turn.sort(function (a, b) { return (seen[a] || 0) - (seen[b] || 0) || objectives.indexOf(a) - objectives.indexOf(b); });
    if (order === "weakest") {
      objectives.forEach(function (o) { news = news.concat(fresh[o]); });
    } else {
      for (var round = 0, added = true; added; round += 1) {
        added = false;
        turn.forEach(function (o) { if (round < fresh[o].length) { news.push(fresh[o][round]); added = true; } });
      }
    }
    return {due: due.length, fresh: news.length, ids: spread(due.concat(news), before)};
  }

  /* A varied question shows the variant after the one seen last (P.nextVariant, as the mock exam draws it). */
  function variantSelector(doc, id) {
    var next = P.nextVariant(doc, id);
    return next ? "[data-variant='" + next + "']" : "";
  }
  function park() {
    if (!current) { return; }
    P.clearForm(current);
    deck.appendChild(current);
    current = null;
  }
  function describe(doc, q) {
    var s = P.store.score(doc, DATA.order);
    status.textContent = "Due now: " + q.due + " · new: " + q.fresh + " · answered so far: " + s.answered + ", " + s.right + " right on the first try.";
  }
  function show(focus) {
    var doc = P.store.load(), now = P.now(), last = current ? current.dataset.qid : null;
    park();
    var q = queue(doc, now, orderBox.value, shown);
    var pick = q.ids.filter(function (id) { return id !== last; })[0];
    describe(doc, q);
    next.parentNode.hidden = true;
    if (!pick) {
      var p = document.createElement("p");
      stage.textContent = "";
      p.textContent = "Nothing is due now. Come back later, or take a mock exam.";
      stage.appendChild(p);
      return;
    }
    current = deck.querySelector("form.question[data-qid='" + CSS.escape(pick) + "']" + variantSelector(doc, pick));
    shown.push(pick);
    stage.textContent = "";
    stage.appendChild(current);
    var stem = current.querySelector(".stem");
    stem.setAttribute("tabindex", "-1");
    if (focus === true) { stem.focus(); }
  }

  stage.addEventListener("exam-prep:answered", function () {
    var doc = P.store.load();
    next.parentNode.hidden = false;
    describe(doc, queue(doc, P.now(), orderBox.value, shown));
  });
  next.addEventListener("click", function () { show(true); });
  orderBox.addEventListener("change", show);
  retentionBox.addEventListener("change", function () {
    var doc = P.store.load();
    doc.settings.retention = Number(retentionBox.value);
    P.store.save(doc);
    show();
  });
  var params = new URLSearchParams(window.location.search);
  if (params.get("order") === "weakest") { orderBox.value = "weakest"; }
  retentionBox.value = String(P.store.load().settings.retention);
  document.querySelector(".review-controls").hidden = false;
  P.reviewQueue = queue;
  show();
}());
