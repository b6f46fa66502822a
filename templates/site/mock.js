/* The mock exam: a timed attempt drawn by the sections' weights, scored only at the end.
   The draw: N = the exam's mock_exam.questions (or every question of the mock bank, when fewer: the page holds the
   auto-graded ones, authored unless mock_exam.drills); each section gets its weight's share of N by largest
   remainders (so within one question of it), capped at what it holds, the rest shared out again; a section gives its
   questions held out for mocks (mock_only) first, then the others, each group shuffled, and the whole attempt is
   shuffled, by a PRNG seeded with the attempt's seed, so the same seed draws the same questions in the same order. The attempt is saved as it goes
   (a reload resumes it, the clock still running); when time runs out it is scored as it stands. The timer is
   shown every second but announced politely only at a few marks (half time, 10, 5 and 1 minutes left).
   A varied question (the bank holds a form per variant) asks the variant after the one the learner saw last, in
   review or an earlier attempt (P.nextVariant): the attempt keeps it (`variants`), grades it by that variant's own
   answer and names it on the answers it stores. */
(function () {
  "use strict";
  var P = window.ExamPrep, DATA = window.EXAM_DATA;
  var bank = document.querySelector(".mock-bank");
  if (!P || !P.refresh || !bank) { return; }
  var $ = function (id) { return document.getElementById(id); };
  var CONFIG = DATA.mock, attempt = null, ticker = null, announced = {};

  function rng(seed) {  // mulberry32: small, fast and the same in every browser
    var a = seed >>> 0;
    return function () {
      a = (a + 0x6D2B79F5) >>> 0;
      var t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  function shuffle(list, random) {
    var out = list.slice();
    for (var i = out.length - 1; i > 0; i -= 1) {
      var j = Math.floor(random() * (i + 1)), t = out[i];
      out[i] = out[j];
      out[j] = t;
    }
    return out;
  }
  function eligible() {
    var by = {};
    P.each(bank.querySelectorAll("form.question"), function (f) {
      if (P.variantOf(f) > 1) { return; }  // a varied question is drawn once, by its first variant's form
      var s = DATA.questions[f.dataset.qid].section;
      (by[s] = by[s] || []).push(f.dataset.qid);
    });
    return by;
  }
  /* Largest remainders over the sections' weights; a section that holds fewer questions than its share gives
     them all, and what it could not take is shared out again among the others the same way. */
  function apportion(total, sections, caps) {
    var counts = {}, open = sections.slice(), left = total;
    sections.forEach(function (s) { counts[s.number] = 0; });
    while (left > 0 && open.length) {
      var weight = open.reduce(function (sum, s) { return sum + s.weight; }, 0);
      var quotas = open.map(function (s) { var q = left * (weight ? s.weight / weight : 1 / open.length); return {s: s, q: q, n: Math.floor(q)}; });
      var given = quotas.reduce(function (sum, x) { return sum + x.n; }, 0);
      quotas.slice().sort(function (a, b) { return (b.q - b.n) - (a.q - a.n) || a.s.number - b.s.number; })
        .slice(0, left - given).forEach(function (x) { x.n += 1; });
      var full = quotas.filter(function (x) { return x.n >= caps[x.s.number]; });
      if (!full.length) {
        quotas.forEach(function (x) { counts[x.s.number] = x.n; });
        return counts;
      }
      full.forEach(function (x) { counts[x.s.number] = caps[x.s.number]; left -= caps[x.s.number]; });
      open = open.filter(function (s) { return !full.some(function (x) { return x.s === s; }); });
    }
    return counts;
  }
  function draw(seed) {
    var by = eligible(), random = rng(seed), caps = {}, total = 0;
    var sections = DATA.sections.filter(function (s) { return by[s.number] && by[s.number].length; });
    sections.forEach(function (s) { caps[s.number] = by[s.number].length; total += caps[s.number]; });
    var size = Math.min(CONFIG.questions, total), counts = apportion(size, sections, caps), picked = [];
    sections.forEach(function (s) {  // the section's questions held out for mocks first, then the others
      var held = by[s.number].filter(function (id) { return DATA.questions[id].mockOnly; });
      var rest = by[s.number].filter(function (id) { return !DATA.questions[id].mockOnly; });
      picked = picked.concat(shuffle(held, random).concat(shuffle(rest, random)).slice(0, counts[s.number]));
    });
    return shuffle(picked, random);
  }
  /* Which of an attempt's questions the learner had met before it began: answered (or shown) in practice, or
     drawn in an earlier mock exam. */
  function seenBefore(doc, a) {
    var started = Date.parse(a.started);
    return a.questions.filter(function (id) {
      var c = P.own(doc.cards, id) ? doc.cards[id] : null;
      return (c && c.last && Date.parse(c.last.time) < started) ||
        doc.mocks.some(function (m) { return Date.parse(m.started) < started && m.questions.indexOf(id) >= 0; });
    });
  }
  function seenText(doc, a) {
    var seen = seenBefore(doc, a).length, held = a.questions.filter(function (id) { return P.own(DATA.questions, id) && DATA.questions[id].mockOnly; }).length;
    return "Of these " + a.questions.length + " questions, " + held + (held === 1 ? " is" : " are") + " held out for mock exams; " +
      (a.questions.length - seen) + " " + (a.questions.length - seen === 1 ? "is" : "are") + " new to you and " + seen + " you had met before (in practice or an earlier mock exam).";
  }

  /* The variant of `id` the attempt asks, or null (not varied, or an attempt from before the question varied). */
  function variantIn(a, id) { return a.variants && P.own(a.variants, id) ? a.variants[id] : null; }
  /* The variants an attempt of `ids` asks, each the one after the variant seen last; null when none varies. */
  function variantsFor(doc, ids) {
    var out = null;
    ids.forEach(function (id) {
      var next = P.nextVariant(doc, id);
      if (next) { out = out || {}; out[id] = next; }
    });
    return out;
  }
  /* The attempt's form of `id`: its variant's, or the question's (first) one. */
  function form(id) {
    var plain = "form.question[data-qid='" + CSS.escape(id) + "']", v = variantIn(attempt, id);
    return (v && document.querySelector(plain + "[data-variant='" + v + "']")) || document.querySelector(plain);
  }
  function gradeOf(a, id, response) { return P.grade(P.asked(DATA.questions[id], variantIn(a, id)), response); }
  function left(now) { return attempt.minutes * 60000 - (now - Date.parse(attempt.started)); }
  function clock(ms) {
    var s = Math.max(0, Math.ceil(ms / 1000)), m = Math.floor(s / 60);
    return m + ":" + (s % 60 < 10 ? "0" : "") + (s % 60);
  }
  function persist() {
    var doc = P.store.load(), at = doc.mocks.length - 1;
    if (at >= 0 && !doc.mocks[at].finished && doc.mocks[at].started === attempt.started) { doc.mocks[at] = attempt; } else { doc.mocks.push(attempt); }
    P.store.save(doc);
  }
  function counts() {
    var answered = attempt.questions.filter(function (id) { return P.own(attempt.answers, id); }).length;
    $("mock-counts").textContent = "Answered " + answered + " of " + attempt.questions.length + " · flagged for review: " + attempt.flagged.length;
    P.each($("mock-nav").querySelectorAll("a"), function (a) {
      var id = a.dataset.qid, flags = [];
      if (P.own(attempt.answers, id)) { flags.push("answered"); }
      if (attempt.flagged.indexOf(id) >= 0) { flags.push("flagged"); }
      a.textContent = a.dataset.n + (flags.length ? " (" + flags.join(", ") + ")" : "");
      a.className = flags.join(" ");
    });
  }
  function tick() {
    var ms = left(P.now()), minutes = Math.ceil(ms / 60000);
    $("mock-clock").textContent = clock(ms);
    if (ms <= 0) { finish(true); return; }
    [Math.floor(attempt.minutes / 2), 10, 5, 1].forEach(function (mark) {
      if (mark > 0 && mark < attempt.minutes && minutes <= mark && !announced[mark]) {
        announced[mark] = true;
        $("mock-announce").textContent = mark + (mark === 1 ? " minute" : " minutes") + " left.";
      }
    });
  }
  function record(f) {
    var id = f.dataset.qid, response = P.responseOf(f), status = gradeOf(attempt, id, response);
    if (status === "incomplete") { delete attempt.answers[id]; } else { attempt.answers[id] = response; }
    attempt.flagged = attempt.questions.filter(function (q) { return form(q).querySelector(".flag-box").checked; });
    persist();
    counts();
  }

  function run() {
    var list = $("mock-questions"), nav = $("mock-nav");
    attempt.answers = P.dict(attempt.answers);
    list.textContent = "";
    nav.textContent = "";
    attempt.questions.forEach(function (id, i) {
      var f = form(id);
      f.reset();
      f.querySelector(".mock-number").textContent = "Question " + (i + 1) + " of " + attempt.questions.length;
      if (P.own(attempt.answers, id)) { P.showResponse(f, attempt.answers[id]); }
      f.querySelector(".flag-box").checked = attempt.flagged.indexOf(id) >= 0;
      list.appendChild(f);
      var li = document.createElement("li"), a = document.createElement("a");
      a.href = "#" + f.id;
      a.dataset.qid = id;
      a.dataset.n = String(i + 1);
      li.appendChild(a);
      nav.appendChild(li);
    });
    document.querySelector(".mock-start").hidden = true;
    document.querySelector(".mock-results").hidden = true;
    document.querySelector(".mock-run").hidden = false;
    $("mock-seen").textContent = seenText(P.store.load(), attempt);
    counts();
    tick();
    ticker = window.setInterval(tick, 1000);
  }
  function begin() {
    var text = $("mock-seed").value.trim(), seed = /^\d{1,10}$/.test(text) && Number(text) <= 4294967295 ? Number(text) : null;
    if (seed === null) { seed = window.crypto.getRandomValues(new Uint32Array(1))[0]; }
    var questions = draw(seed), variants = variantsFor(P.store.load(), questions);
    attempt = {seed: seed, started: P.now().toISOString(), finished: null, minutes: CONFIG.minutes, pass_mark: CONFIG.pass,
               questions: questions, answers: P.dict(), flagged: [], right: [], timed_out: false};
    if (variants) { attempt.variants = variants; }  // left out when no question varies: such an attempt reads as before
    announced = {};
    persist();
    run();
    $("mock-run-heading").setAttribute("tabindex", "-1");
    $("mock-run-heading").focus();
  }

  function finish(timedOut) {
    window.clearInterval(ticker);
    var asking = document.querySelector("dialog.finish-dialog");
    if (asking.open) { asking.close(); }  // time ran out while the learner was being asked
    var now = P.now(), doc = P.store.load();
    attempt.finished = now.toISOString();
    attempt.timed_out = !!timedOut;
    attempt.right = attempt.questions.filter(function (id) {
      return P.own(attempt.answers, id) && gradeOf(attempt, id, attempt.answers[id]) === "right";
    });
    attempt.questions.forEach(function (id) {
      var given = {card_id: id, time: attempt.finished, response: P.own(attempt.answers, id) ? attempt.answers[id] : null,
                   score: attempt.right.indexOf(id) >= 0 ? 1 : 0, mode: "mock", hash: DATA.questions[id].hash};
      if (variantIn(attempt, id)) { given.variant = variantIn(attempt, id); }
      doc.answers.push(given);
    });
    var at = doc.mocks.length - 1;
    if (at >= 0 && doc.mocks[at].started === attempt.started) { doc.mocks[at] = attempt; } else { doc.mocks.push(attempt); }
    P.store.save(doc);
    P.each($("mock-questions").querySelectorAll("form.question"), function (f) { bank.appendChild(f); });
    document.querySelector(".mock-run").hidden = true;
    results(attempt);
    if (timedOut) { $("mock-announce").textContent = "Time is up. Your attempt was scored."; }
    history();
    var section = document.querySelector(".mock-results");
    section.focus();
  }

  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined) { node.textContent = text; }
    if (cls) { node.className = cls; }
    return node;
  }
  function table(caption, rows) {
    var t = el("table", undefined, "mock-table"), head = el("tr");
    t.appendChild(el("caption", caption));
    ["", "Right", "Of", "Score"].forEach(function (h, i) { var th = el("th", h || (caption.indexOf("objective") >= 0 ? "Objective" : "Section")); th.scope = "col"; head.appendChild(th); if (!i) { th.className = "name"; } });
    t.appendChild(head);
    rows.forEach(function (r) {
      var tr = el("tr"), th = el("th", r.name);
      th.scope = "row";
      tr.appendChild(th);
      [r.right, r.of, Math.round(100 * r.right / r.of) + "%"].forEach(function (v) { tr.appendChild(el("td", String(v))); });
      t.appendChild(tr);
    });
    return t;
  }
  function tally(a, keyOf, nameOf, order) {
    var by = {};
    a.questions.forEach(function (id) {
      if (!P.own(DATA.questions, id)) { return; }
      var k = keyOf(DATA.questions[id]);
      by[k] = by[k] || {name: nameOf(k), right: 0, of: 0};
      by[k].of += 1;
      by[k].right += a.right.indexOf(id) >= 0 ? 1 : 0;
    });
    return order.filter(function (k) { return by[k]; }).map(function (k) { return by[k]; });
  }
  function reviewHref(a) { return "mock-review.html?attempt=" + encodeURIComponent(a.started); }
  /* Finishing early asks first when questions are unanswered or flagged, naming them by number. */
  function askFinish() {
    var numbers = function (ids) { return ids.map(function (id) { return attempt.questions.indexOf(id) + 1; }).sort(function (x, y) { return x - y; }); };
    var open = numbers(attempt.questions.filter(function (id) { return !P.own(attempt.answers, id); })), flagged = numbers(attempt.flagged);
    if (!open.length && !flagged.length) { finish(false); return; }
    var words = [], list = function (ns) { return ns.length > 12 ? ns.slice(0, 10).join(", ") + " and " + (ns.length - 10) + " more" : ns.join(", "); };
    if (open.length) { words.push(P.plural(open.length, "question") + " of " + attempt.questions.length + " unanswered (" + list(open) + "), scored as wrong"); }
    if (flagged.length) { words.push(P.plural(flagged.length, "question") + " flagged for review (" + list(flagged) + ")"); }
    $("finish-what").textContent = "You have " + words.join(" and ") + ".";
    var dialog = document.querySelector("dialog.finish-dialog");
    dialog.first = open.length ? open[0] : flagged[0];
    dialog.showModal();
    dialog.querySelector(".finish-back").focus();
  }
  function bindFinish(dialog) {
    dialog.querySelector(".finish-back").addEventListener("click", function () {
      dialog.close();
      var link = $("mock-nav").querySelector("a[data-n='" + dialog.first + "']");
      if (link) { link.focus(); }
    });
    dialog.querySelector(".finish-confirm").addEventListener("click", function () { dialog.close(); finish(false); });
  }

  function results(a) {
    var box = $("mock-results"), total = a.questions.length, pct = total ? Math.round(100 * a.right.length / total) : 0;
    box.textContent = "";
    var passed = pct >= a.pass_mark;
    box.appendChild(el("p", "Score: " + a.right.length + " of " + total + " (" + pct + "%): " + (passed ? "pass" : "not a pass") +
      " (the pass mark is " + a.pass_mark + "%)." + (a.timed_out ? " Time ran out." : ""), "mock-score " + (passed ? "right" : "wrong")));
    var sectionName = function (n) { return DATA.sections.filter(function (s) { return String(s.number) === String(n); })[0].heading; };
    box.appendChild(table("Score per section", tally(a, function (q) { return q.section; }, sectionName, DATA.sections.map(function (s) { return s.number; }))));
    box.appendChild(table("Score per objective", tally(a, function (q) { return q.objective; }, function (o) { return DATA.objectives[o].heading; }, Object.keys(DATA.objectives))));
    var missed = a.questions.filter(function (id) { return a.right.indexOf(id) < 0 && P.own(DATA.questions, id); });
    box.appendChild(el("h3", missed.length ? "Missed questions: read them again on their objective's page" : "No question missed."));
    if (missed.length) {
      var list = el("ul", undefined, "mock-missed");
      missed.forEach(function (id) {
        var q = DATA.questions[id], li = el("li"), link = el("a", DATA.objectives[q.objective].heading + ": " + q.label.split(" ").pop());
        link.href = DATA.questions[id].page;
        li.appendChild(link);
        li.appendChild(document.createTextNode(P.own(a.answers, id) ? "" : " (not answered)"));
        list.appendChild(li);
      });
      box.appendChild(list);
    }
    var review = el("p", undefined, "mock-review-link"), link = el("a", "Review this attempt: each question with your answer, the key and why");
    link.href = reviewHref(a);
    review.appendChild(link);
    box.appendChild(review);
    box.appendChild(el("p", seenText(P.store.load(), a), "mock-seen-result"));
    box.appendChild(el("p", "Seed " + a.seed + ": the same seed draws these questions again.", "meta"));
    document.querySelector(".mock-results").hidden = false;
  }
  function history() {
    var doc = P.store.load(), done = doc.mocks.filter(function (m) { return m.finished; }), box = $("mock-history");
    box.textContent = "";
    document.querySelector(".mock-history").hidden = !done.length;
    if (!done.length) { return; }
    var list = el("ol", undefined, "mock-attempts");
    done.forEach(function (m) {
      var pct = m.questions.length ? Math.round(100 * m.right.length / m.questions.length) : 0, li = el("li");
      li.appendChild(document.createTextNode(m.finished.slice(0, 10) + ": " + m.right.length + " of " + m.questions.length + " (" + pct + "%), " +
        (pct >= m.pass_mark ? "pass" : "not a pass") + (m.timed_out ? ", time ran out" : "") + " · "));
      var again = el("a", "retake seed " + m.seed), review = el("a", "review");
      again.href = "?seed=" + m.seed;
      review.href = reviewHref(m);
      li.appendChild(review);
      li.appendChild(document.createTextNode(" · "));
      li.appendChild(again);
      list.appendChild(li);
    });
    box.appendChild(list);
  }

  function start() {
    var doc = P.store.load(), last = doc.mocks[doc.mocks.length - 1], size = 0, by = eligible();
    Object.keys(by).forEach(function (k) { size += by[k].length; });
    document.querySelector(".mock-size").textContent = size < CONFIG.questions
      ? "The questions here are fewer than " + CONFIG.questions + ": an attempt has all " + size + " of them, in " + CONFIG.minutes + " minutes."
      : "Each attempt draws " + CONFIG.questions + " of the " + size + " questions, those held out for mock exams first.";
    bank.addEventListener("change", function (e) { var f = e.target.closest("form.question"); if (f && attempt) { record(f); } });
    $("mock-questions").addEventListener("change", function (e) { var f = e.target.closest("form.question"); if (f && attempt) { record(f); } });
    $("mock-questions").addEventListener("input", function (e) { var f = e.target.closest("form.question"); if (f && attempt) { record(f); } });
    $("mock-questions").addEventListener("submit", function (e) { e.preventDefault(); });
    $("mock-begin").addEventListener("click", begin);
    $("mock-finish").addEventListener("click", askFinish);
    bindFinish(document.querySelector("dialog.finish-dialog"));
    var seed = new URLSearchParams(window.location.search).get("seed");
    if (seed) { $("mock-seed").value = seed; }
    history();
    if (last && !last.finished) {
      attempt = last;
      if (left(P.now()) <= 0) { finish(true); } else { run(); }
      return;
    }
    document.querySelector(".mock-start").hidden = false;
  }

  P.mockDraw = draw;
  start();
}());
