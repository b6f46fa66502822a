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
  /* What the learner gave for one part, in the shape grade.js reads: option ids, text, prompt -> answer, item ids in order. */
  function response(el, shape) {
    if (shape === "choices") {
      return Array.prototype.map.call(el.querySelectorAll("input:checked"), function (i) { return i.value; });
    }
    if (shape === "text" || shape === "numeric") {
      return el.querySelector("input, textarea").value;
    }
    var selects = Array.prototype.slice.call(el.querySelectorAll("select"));
    if (selects.some(function (s) { return !s.value; })) { return null; }
    if (shape === "pairs") {
      var pairs = {};
      selects.forEach(function (s) { pairs[s.dataset.pair] = s.value; });
      return pairs;
    }
    var order = selects.slice().sort(function (a, b) { return Number(a.value) - Number(b.value); });
    return order.map(function (s) { return s.dataset.item; });
  }

  /* The learner's answer: null when a part is not answered yet, "self" when an answered part is for the
     learner to judge (a written answer with no accepted answers), else whether every part is right. */
  function mark(form, q) {
    var self = false, verdicts = Array.prototype.map.call(form.querySelectorAll("[data-part]"), function (el) {
      var rule = q.parts[Number(el.dataset.part)], given = response(el, el.dataset.shape);
      if (rule.shape === "text" && !rule.accepted.length && given && given.trim()) { self = true; return {right: true}; }
      return window.ExamGrade.grade(rule, given, DATA.grading);
    });
    if (verdicts.some(function (v) { return v.right === null; })) { return null; }
    return self ? "self" : verdicts.every(function (v) { return v.right; });
  }

  function announce(form, right) {
    var region = form.querySelector(".feedback");
    region.textContent = "";
    var verdict = document.createElement("p");
    verdict.className = "verdict " + (right === null ? "incomplete" : right === "self" ? "self" : right ? "right" : "wrong");
    verdict.textContent = right === null ? "Answer every part first." : right === "self" ? "Compare your answer with the model answer."
                        : right ? "Correct." : "Not quite.";
    region.appendChild(verdict);
    if (right === null) { return; }
    var body = form.querySelector(".solution-body");
    Array.prototype.forEach.call(body.children, function (child) { region.appendChild(child.cloneNode(true)); });
  }

  function check(event) {
    event.preventDefault();
    var form = event.currentTarget, id = form.dataset.qid, right = mark(form, DATA.questions[id]);
    announce(form, right);
    if (right === null || right === "self") { return; }
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
