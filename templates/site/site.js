/* The study site's questions on every page: reads an answer from its form, grades it (grade.js), records it
   (store.js: honest first answers, FSRS ratings), announces the verdict with the answer, the explanation and the
   quotes behind it in the form's live region, and shows progress: per question its last answer and result, per
   objective the score and the mastery (the share of its questions likely recalled now, and the last mock exam).
   Reads window.EXAM_DATA (assets/exam-data.js, by <script src>: pages opened from file:// may not fetch()).
   Without JavaScript every page still reads: answers sit in <details>, the Check buttons stay hidden. */
(function () {
  "use strict";
  var P = window.ExamPrep, DATA = window.EXAM_DATA;
  if (!DATA || !P || !P.store) { return; }
  document.documentElement.setAttribute("data-js", "");
  var each = function (list, fn) { Array.prototype.forEach.call(list, fn); };
  P.now = function () { return new Date(); };
  P.each = each;

  /* The built-in shapes' form readers (`read`: what the learner gave, in the shape grade.js reads: option ids,
     text, prompt -> answer, item ids in order) and writers (`show`: a saved answer put back). They join the
     graders in grade.js's registry; a shape with a folder of its own registers its pair in its own script. */
  var G = window.ExamGrade, typed = {
    read: function (el) { return el.querySelector("input, textarea").value; },
    show: function (el, given) { el.querySelector("input, textarea").value = String(given); }
  };
  function selects(el) {
    var all = Array.prototype.slice.call(el.querySelectorAll("select"));
    return all.some(function (s) { return !s.value; }) ? null : all;
  }
  G.register("choices", {
    read: function (el) { return Array.prototype.map.call(el.querySelectorAll("input:checked"), function (i) { return i.value; }); },
    show: function (el, given) { each(el.querySelectorAll("input"), function (input) { input.checked = given.indexOf(input.value) >= 0; }); }
  });
  G.register("text", typed);
  G.register("numeric", typed);
  G.register("pairs", {
    read: function (el) {
      var all = selects(el), pairs = {};
      if (!all) { return null; }
      all.forEach(function (s) { pairs[s.dataset.pair] = s.value; });
      return pairs;
    },
    show: function (el, given) { each(el.querySelectorAll("select"), function (s) { s.value = P.own(given, s.dataset.pair) ? given[s.dataset.pair] : ""; }); }
  });
  G.register("sequence", {
    read: function (el) {
      var all = selects(el);
      if (!all) { return null; }
      return all.slice().sort(function (a, b) { return Number(a.value) - Number(b.value); }).map(function (s) { return s.dataset.item; });
    },
    show: function (el, given) { each(el.querySelectorAll("select"), function (s) { s.value = given.indexOf(s.dataset.item) >= 0 ? String(given.indexOf(s.dataset.item) + 1) : ""; }); }
  });
  /* The form's answer: one response per part, in part order (an unknown shape throws: grade.js's registry). */
  function responseOf(form) {
    return Array.prototype.map.call(form.querySelectorAll("[data-part]"), function (el) { return G.shape(el.dataset.shape).read(el); });
  }
  /* Put a saved answer back into the form (after a reload: the learner sees what they answered). */
  function showResponse(form, responses) {
    if (!Array.isArray(responses)) { return; }
    each(form.querySelectorAll("[data-part]"), function (el, i) {
      var given = responses[i];
      if (given === null || given === undefined) { return; }
      G.shape(el.dataset.shape).show(el, given);
    });
  }

  /* The variant a form asks (review and the mock exam show a varied question's variants in turn), or null. */
  P.variantOf = function (form) {
    var n = Number(form.dataset.variant || 0);
    return n >= 1 ? n : null;
  };
  /* The variant of question `id` the learner saw last, 0 for none: the card's (review and the pages keep it there)
     or a mock exam attempt's (the attempt keeps the variants it drew), whichever is later. */
  P.lastVariant = function (doc, id) {
    var c = P.own(doc.cards, id) ? doc.cards[id] : null, last = 0, when = -Infinity;
    if (c && c.variant) { last = c.variant; when = c.last ? Date.parse(c.last.time) : when; }
    doc.mocks.forEach(function (m) {
      if (m.variants && P.own(m.variants, id) && Date.parse(m.started) >= when) { last = m.variants[id]; when = Date.parse(m.started); }
    });
    return last;
  };
  /* The variant to show next, the one after the variant seen last (the FSRS card is the question, not the variant:
     each time it comes back, in review or a mock exam, it asks the next); null for a question without variants. */
  P.nextVariant = function (doc, id) {
    var variants = DATA.questions[id].variants;
    return variants ? P.lastVariant(doc, id) % variants.length + 1 : null;
  };
  /* What grades variant `variant` of question `q` (its own answer), or `q` itself when `variant` is null (or names a
     variant this build no longer has: an attempt begun before a rebuild). */
  P.asked = function (q, variant) { return variant && q.variants && q.variants[variant - 1] ? {grade: q.variants[variant - 1]} : q; };
  /* The verdict on a whole question, through grade.js (the rules are the build's data): "incomplete" while a part
     is unanswered, "self" when an answered part is for the learner to judge (written, no accepted answers),
     else "right" when every part is right, or "wrong". */
  P.grade = function (q, responses) {
    var self = false, verdicts = q.grade.parts.map(function (rule, i) {
      var given = responses[i];
      var v = G.grade(rule, given, DATA.grading);
      // no verdict on an answer given: a person judges it (a written answer without accepted answers)
      if (v.right === null && !G.empty(given) && !(typeof given === "string" && !given.trim())) { self = true; return {right: true}; }
      return v;
    });
    if (verdicts.some(function (v) { return v.right === null; })) { return "incomplete"; }
    if (self) { return "self"; }
    return verdicts.every(function (v) { return v.right; }) ? "right" : "wrong";
  };

  function clearForm(form) {
    form.reset();
    form.querySelector(".feedback").textContent = "";
    var details = form.querySelector("details.solution"), grade = form.querySelector(".self-grade");
    if (details) { details.open = false; }
    if (grade) { grade.hidden = true; }
    delete form.dataset.answered;
    delete form.dataset.shown;
  }

  var VERDICTS = {right: "Correct.", wrong: "Not quite.", incomplete: "Answer every part first.", self: "Compare your answer with the model answer:",
                  revealed: "Answer shown before answering: counted as not known (Again)."};
  function announce(form, status, note) {
    var region = form.querySelector(".feedback");
    region.textContent = "";
    var verdict = document.createElement("p");
    verdict.className = "verdict " + status;
    verdict.textContent = VERDICTS[status];
    region.appendChild(verdict);
    if (status === "incomplete") { return; }
    if (note) {
      var line = document.createElement("p");
      line.className = "meta score-note";
      line.textContent = note;
      region.appendChild(line);
    }
    each(form.querySelector(".solution-body").children, function (child) { region.appendChild(child.cloneNode(true)); });
  }
  function noteFor(outcome) {
    return outcome.first ? "" : "Already answered today: this answer does not change your score.";
  }
  function finish(form, outcome) {
    form.dataset.answered = "";
    refresh();
    form.dispatchEvent(new CustomEvent("exam-prep:answered", {bubbles: true, detail: outcome}));
  }

  function check(event) {
    event.preventDefault();
    var form = event.currentTarget, id = form.dataset.qid, q = DATA.questions[id], response = responseOf(form);
    var variant = P.variantOf(form);
    var status = P.grade(P.asked(q, variant), response);  // a variant is graded by its own answer
    if (status === "incomplete") { announce(form, status); return; }
    if (status === "self") {
      form.dataset.shown = "";  // the model answer is out: opening the details now reveals nothing new
      announce(form, status);
      nextTimes(form);
      form.querySelector(".self-grade").hidden = false;
      form.querySelector(".self-grade button[data-rating='3']").focus();
      return;
    }
    var doc = P.store.load(), outcome = P.store.answer(doc, id, response, status, status === "right" ? 3 : 1, P.now(), variant);
    P.store.save(doc);
    announce(form, status, noteFor(outcome));
    finish(form, outcome);
  }
  /* Beside each rating, when it comes back ("Good · in 10 minutes"), as Anki shows; nothing when it would rate nothing. */
  function nextTimes(form) {
    var doc = P.store.load(), now = P.now(), c = P.own(doc.cards, form.dataset.qid) ? doc.cards[form.dataset.qid] : null;
    var rates = !c || !c.session || c.session.day !== P.localDay(now) || (P.schedule.inLearning(c.fsrs) && new Date(c.fsrs.due) <= now);
    each(form.querySelectorAll(".self-grade button"), function (b) {
      var label = ["", "Again", "Hard", "Good", "Easy"][Number(b.dataset.rating)];
      var due = rates ? P.schedule.rate(c ? c.fsrs : null, Number(b.dataset.rating), now, doc.settings.retention).fsrs.due : null;
      b.textContent = due ? label + " · in " + wait(new Date(due) - now) : label;
    });
  }
  function rateSelf(form, rating) {
    var id = form.dataset.qid, doc = P.store.load();
    var outcome = P.store.answer(doc, id, responseOf(form), rating > 1 ? "right" : "wrong", rating, P.now(), P.variantOf(form));
    P.store.save(doc);
    form.querySelector(".self-grade").hidden = true;
    var note = document.createElement("p");
    note.className = "meta score-note";
    note.textContent = "Marked " + ["", "Again", "Hard", "Good", "Easy"][rating] + (outcome.first ? "." : ". " + noteFor(outcome)) +
      (outcome.rated ? " Next review in " + wait(new Date(doc.cards[id].fsrs.due) - P.now()) + "." : "");
    form.querySelector(".feedback").appendChild(note);
    finish(form, outcome);
  }
  function reveal(form) {
    if (P.own(form.dataset, "answered") || P.own(form.dataset, "shown") || !form.querySelector("details.solution").open) { return; }
    var doc = P.store.load(), outcome = P.store.reveal(doc, form.dataset.qid, P.now());
    P.store.save(doc);
    if (outcome.first || outcome.rated) { announce(form, "revealed"); finish(form, outcome); }
  }

  function bindForm(form) {
    form.addEventListener("submit", check);
    form.querySelector("button.check").hidden = false;
    each(form.querySelectorAll(".self-grade button"), function (b) {
      b.addEventListener("click", function () { rateSelf(form, Number(b.dataset.rating)); });
    });
    form.querySelector("details.solution").addEventListener("toggle", function () { reveal(form); });
  }

  /* --- progress ------------------------------------------------------------------------------------ */
  function ids(scope) {
    if (scope === "all") { return DATA.order; }
    return P.own(DATA.objectives, scope) ? DATA.objectives[scope].questions : [];
  }
  function summary(list, doc, short) {
    var s = P.store.score(doc, list);
    if (short) { return "Progress: " + s.answered + " of " + list.length + " answered, " + s.right + " right on the first try"; }
    return s.answered + " of " + list.length + " questions answered, " + s.right + " right on the first try.";
  }
  /* Per objective: the mean recall probability of its questions now (new ones count 0), and the last mock. */
  function mastery(doc, objective, now) {
    var list = DATA.objectives[objective].questions, total = 0;
    list.forEach(function (id) {
      var c = P.own(doc.cards, id) ? doc.cards[id] : null;
      total += c ? P.schedule.retrievability(c.fsrs, now, doc.settings.retention) : 0;
    });
    var finished = doc.mocks.filter(function (m) { return m.finished; }), last = finished[finished.length - 1], mock = null;
    if (last) {
      var asked = last.questions.filter(function (id) { return P.own(DATA.questions, id) && DATA.questions[id].objective === objective; });
      if (asked.length) { mock = {asked: asked.length, right: asked.filter(function (id) { return last.right.indexOf(id) >= 0; }).length}; }
    }
    return {retained: list.length ? total / list.length : 0, count: list.length, mock: mock};
  }
  function masteryText(m) {
    var text = "Likely recalled now: " + Math.round(m.retained * 100) + "% of " + m.count + " question" + (m.count === 1 ? "" : "s");
    return text + (m.mock ? " · last mock exam: " + m.mock.right + " of " + m.mock.asked + " right" : " · not in a mock exam yet");
  }
  function day(iso) { return iso.slice(0, 10); }
  function wait(ms) {
    var units = ms < 3600000 ? [60000, "minute"] : ms < 86400000 ? [3600000, "hour"] : [86400000, "day"], n = Math.max(1, Math.round(ms / units[0]));
    return n + " " + units[1] + (n === 1 ? "" : "s");
  }
  function questionLine(c, now) {
    if (!c || !c.last) { return ""; }
    var result = {right: "right", wrong: "not right", revealed: "answer shown first"}[c.last.result];
    var text = "· last answer: " + result + " (" + day(c.last.time) + ")";
    if (c.fsrs) { text += P.schedule.isDue(c.fsrs, now) ? " · due now" : " · next review in " + wait(new Date(c.fsrs.due) - now); }
    return text;
  }
  function refresh() {
    var doc = P.store.load(), now = P.now();
    each(document.querySelectorAll("[data-progress]"), function (el) {
      el.textContent = summary(ids(el.dataset.progress), doc, el.classList.contains("progress-line"));
    });
    each(document.querySelectorAll("[data-mastery]"), function (el) { el.textContent = masteryText(mastery(doc, el.dataset.mastery, now)); });
    each(document.querySelectorAll("form.question [data-qprogress]"), function (el) {
      var id = el.closest("form").dataset.qid;
      el.textContent = questionLine(P.own(doc.cards, id) ? doc.cards[id] : null, now);
    });
  }
  /* On a reload the questions of a page show the learner's last answers (not in review: a review starts blank; nor in a
     mock or its review, which show the attempt's answers). */
  function restore(doc) {
    if (document.querySelector(".review-deck, .mock-bank, .mock-review-list")) { return; }
    each(document.querySelectorAll("form.question"), function (form) {
      var id = form.dataset.qid, c = P.own(doc.cards, id) ? doc.cards[id] : null;
      if (c && c.last) { showResponse(form, c.last.response); }
    });
  }

  /* A file made in the page (a Blob and a download link): nothing leaves the browser otherwise. */
  function download(name, text, type) {
    var url = URL.createObjectURL(new Blob([text], {type: type})), a = document.createElement("a");
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    window.setTimeout(function () { URL.revokeObjectURL(url); }, 0);
  }
  /* The progress as JSON (the published schema): returns the file's name. */
  function exportProgress() {
    var name = DATA.exam + "-progress-" + P.localDay(P.now()) + ".json";
    download(name, P.store.exportText(P.store.load(), P.now()), "application/json");
    return name;
  }

  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }
  /* What a reset would erase, in the learner's words. */
  function erasable(doc) {
    var cards = Object.keys(doc.cards).length, mocks = doc.mocks.length;
    if (!cards && !doc.log.length && !mocks) { return "Nothing is recorded for " + DATA.code + " in this browser yet."; }
    return "This erases everything this browser keeps for " + DATA.code + ": " + plural(cards, "question") + " started (answers and review schedule), " +
      plural(doc.log.length, "review") + " in the review log and " + plural(mocks, "mock exam attempt") + ".";
  }
  function erase() {
    try { window.localStorage.removeItem(DATA.storageKey); } catch (e) { /* nothing kept anyway */ }
    each(document.querySelectorAll("form.question"), clearForm);
    refresh();
    each(document.querySelectorAll(".progress-summary"), function (el) { el.textContent = "Progress reset. " + el.textContent; });
    document.dispatchEvent(new CustomEvent("exam-prep:reset"));
  }
  /* Reset asks first (a <dialog>: focus stays in it, Escape keeps the progress), naming what it erases. */
  function askReset(button) {
    var dialog = document.querySelector("dialog.reset-dialog");
    dialog.querySelector("#reset-dialog-what").textContent = erasable(P.store.load());
    dialog.querySelector(".reset-exported").textContent = "";
    dialog.returnTo = button;
    dialog.showModal();
    dialog.querySelector(".reset-cancel").focus();
  }
  function bindReset(dialog) {
    dialog.querySelector(".reset-cancel").addEventListener("click", function () { dialog.close(); });
    dialog.querySelector(".reset-confirm").addEventListener("click", function () { dialog.close(); erase(); });
    dialog.querySelector(".reset-export").addEventListener("click", function () {
      dialog.querySelector(".reset-exported").textContent = "Saved " + exportProgress() + ".";
    });
    dialog.addEventListener("close", function () { if (dialog.returnTo) { dialog.returnTo.focus(); } });
  }

  function filter() {
    var section = document.getElementById("filter-section").value;
    var level = document.getElementById("filter-difficulty").value, shown = 0, forms = document.querySelectorAll("form.question");
    each(forms, function (form) {
      var keep = (!section || form.dataset.section === section) && (!level || form.dataset.difficulty === level);
      form.hidden = !keep;
      shown += keep ? 1 : 0;
    });
    document.getElementById("filter-status").textContent = "Showing " + shown + " of " + forms.length + " questions.";
  }

  function start() {
    each(document.querySelectorAll("form.question"), function (form) { if (form.querySelector("button.check")) { bindForm(form); } });
    var dialog = document.querySelector("dialog.reset-dialog");
    if (dialog) { bindReset(dialog); }
    each(document.querySelectorAll("button.reset"), function (button) {
      button.hidden = !dialog;
      button.addEventListener("click", function () { askReset(button); });
    });
    var filters = document.querySelector(".filters");
    if (filters) {
      filters.hidden = false;
      ["filter-section", "filter-difficulty"].forEach(function (id) { document.getElementById(id).addEventListener("change", filter); });
    }
    restore(P.store.load());
    refresh();
  }

  P.responseOf = responseOf;
  P.showResponse = showResponse;
  P.clearForm = clearForm;
  P.refresh = refresh;
  P.download = download;
  P.exportProgress = exportProgress;
  P.plural = plural;
  P.mastery = mastery;
  start();
}());
