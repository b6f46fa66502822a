/* The study site's practice: marks answers, announces feedback, keeps progress in localStorage.
   Reads window.EXAM_DATA (assets/exam-data.js, loaded by <script src>: pages opened from file:// may not fetch()).
   Without JavaScript every page still reads: answers sit in <details>, the Check buttons stay hidden. */
(function () {
  "use strict";
  var DATA = window.EXAM_DATA;
  if (!DATA) { return; }
  document.documentElement.setAttribute("data-js", "");
  var KEY = DATA.storageKey;

  /* Progress is a Map from question id to {answered, correct}: ids come from the sources, and a plain object
     would answer progress["constructor"] or progress["toString"] from its prototype before any answer.
     Stored as the same JSON object as before, own keys only. */
  function loadProgress() {
    var stored = null;
    try { stored = JSON.parse(window.localStorage.getItem(KEY)); } catch (e) { /* unreadable: start afresh */ }
    return new Map(stored && typeof stored === "object" && !Array.isArray(stored) ? Object.entries(stored) : []);
  }
  function saveProgress(progress) {
    try { window.localStorage.setItem(KEY, JSON.stringify(Object.fromEntries(progress))); } catch (e) { /* storage off: nothing kept */ }
  }
  function normalise(text) {
    return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
  }
  function sameSet(a, b) {
    return a.length === b.length && a.slice().sort().join("\n") === b.slice().sort().join("\n");
  }

  /* The learner's answer: null when nothing is given yet, else whether it is right. */
  function mark(form, q) {
    if (q.type === "short_answer") {
      var text = normalise(form.querySelector("input[type=text]").value);
      return text ? q.accepted.map(normalise).indexOf(text) >= 0 : null;
    }
    if (q.type === "matching" || q.type === "ordering") {
      var selects = Array.prototype.slice.call(form.querySelectorAll("select"));
      if (selects.some(function (s) { return !s.value; })) { return null; }
      return selects.every(function (s) {
        return q.type === "matching" ? q.pairs[s.dataset.pair] === s.value
                                     : String(q.order.indexOf(s.dataset.item) + 1) === s.value;
      });
    }
    var chosen = Array.prototype.map.call(form.querySelectorAll("input:checked"), function (i) { return i.value; });
    return chosen.length ? sameSet(chosen, q.correct) : null;
  }

  function announce(form, right) {
    var region = form.querySelector(".feedback");
    region.textContent = "";
    var verdict = document.createElement("p");
    verdict.className = "verdict " + (right === null ? "incomplete" : right ? "right" : "wrong");
    verdict.textContent = right === null ? "Answer every part first." : right ? "Correct." : "Not quite.";
    region.appendChild(verdict);
    if (right === null) { return; }
    var body = form.querySelector(".solution-body");
    Array.prototype.forEach.call(body.children, function (child) { region.appendChild(child.cloneNode(true)); });
  }

  function check(event) {
    event.preventDefault();
    var form = event.currentTarget, id = form.dataset.qid, right = mark(form, DATA.questions[id]);
    announce(form, right);
    if (right === null) { return; }
    var progress = loadProgress(), before = progress.get(id) || {answered: 0};
    progress.set(id, {answered: before.answered + 1, correct: right});
    saveProgress(progress);
    showProgress();
  }

  function summary(ids, progress, short) {
    var answered = ids.filter(function (id) { return progress.has(id); });
    var right = answered.filter(function (id) { return progress.get(id).correct === true; });
    if (short) { return "Progress: " + answered.length + " of " + ids.length + " answered, " + right.length + " right"; }
    return answered.length + " of " + ids.length + " questions answered, " + right.length + " right the last time.";
  }

  function showProgress() {
    var progress = loadProgress(), all = [];
    Object.keys(DATA.objectives).forEach(function (o) { all = all.concat(DATA.objectives[o]); });
    Array.prototype.forEach.call(document.querySelectorAll("[data-progress]"), function (el) {
      var scope = el.dataset.progress;
      el.textContent = summary(scope === "all" ? all : DATA.objectives[scope] || [], progress, el.classList.contains("progress-line"));
    });
    Array.prototype.forEach.call(document.querySelectorAll("form.question"), function (form) {
      var p = progress.get(form.dataset.qid), el = form.querySelector("[data-qprogress]");
      el.textContent = p ? (p.correct ? "· answered, right" : "· answered, not yet right") : "";
    });
  }

  function reset() {
    try { window.localStorage.removeItem(KEY); } catch (e) { /* nothing kept anyway */ }
    Array.prototype.forEach.call(document.querySelectorAll(".feedback"), function (el) { el.textContent = ""; });
    showProgress();
    Array.prototype.forEach.call(document.querySelectorAll(".progress-summary"), function (el) {
      el.textContent = "Progress reset. " + el.textContent;
    });
  }

  function filter() {
    var section = document.getElementById("filter-section").value;
    var level = document.getElementById("filter-difficulty").value, shown = 0, forms = document.querySelectorAll("form.question");
    Array.prototype.forEach.call(forms, function (form) {
      var keep = (!section || form.dataset.section === section) && (!level || form.dataset.difficulty === level);
      form.hidden = !keep;
      shown += keep ? 1 : 0;
    });
    document.getElementById("filter-status").textContent = "Showing " + shown + " of " + forms.length + " questions.";
  }

  function start() {
    Array.prototype.forEach.call(document.querySelectorAll("form.question"), function (form) {
      form.addEventListener("submit", check);
      form.querySelector("button.check").hidden = false;
    });
    Array.prototype.forEach.call(document.querySelectorAll("button.reset"), function (button) {
      button.hidden = false;
      button.addEventListener("click", reset);
    });
    var filters = document.querySelector(".filters");
    if (filters) {
      filters.hidden = false;
      ["filter-section", "filter-difficulty"].forEach(function (id) { document.getElementById(id).addEventListener("change", filter); });
    }
    showProgress();
  }

  start();
}());
