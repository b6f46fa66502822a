/* One mock exam attempt, reviewed (mock-review.html?attempt=<when it started>): the page holds every question of the
   mock bank with its answer and explanation; this shows the attempt's questions in the attempt's order, each with the
   learner's answer put back into its (disabled) inputs and said in words beside the key, marked right, wrong or
   unanswered, and flagged where it was; filters show all, the wrong, the unanswered or the flagged ones. A varied
   question (a form per variant here) shows the variant the attempt asked: its stem, its key and its explanation. */
(function () {
  "use strict";
  var P = window.ExamPrep, DATA = window.EXAM_DATA;
  var list = document.getElementById("mock-review-list");
  if (!P || !P.refresh || !list) { return; }
  var $ = function (id) { return document.getElementById(id); };

  function attemptOf(doc) {
    var wanted = new URLSearchParams(window.location.search).get("attempt");
    var done = doc.mocks.filter(function (m) { return m.finished; });
    return wanted ? done.filter(function (m) { return m.started === wanted; })[0] || null : done[done.length - 1] || null;
  }
  function letter(el) { var span = el && el.querySelector(".letter"); return span ? span.textContent.replace(/\.$/, "") : ""; }
  /* What the learner gave for a part, in a few words (`words`, in grade.js's shape registry): letters, the text
     typed, prompt–answer pairs, an order; a shape with a folder of its own registers its words in its script. */
  var G = window.ExamGrade, quoted = function (el, given) { return "“" + String(given) + "”"; };
  G.register("choices", {words: function (el, given) {
    return given.map(function (id) {
      var input = el.querySelector("input[value='" + CSS.escape(id) + "']"), label = input && input.closest("label");
      return letter(label) || (label ? label.textContent.trim() : id);
    }).join(", ");
  }});
  G.register("text", {words: quoted});
  G.register("numeric", {words: quoted});
  G.register("pairs", {words: function (el, given) {
    return Array.prototype.map.call(el.querySelectorAll("select"), function (s, i) {
      var option = s.querySelector("option[value='" + CSS.escape(given[s.dataset.pair] || "") + "']");
      return (i + 1) + "–" + (option && option.value ? option.textContent.split(".")[0] : "?");
    }).join(", ");
  }});
  G.register("sequence", {words: function (el, given) {
    return given.map(function (id) { return letter(el.querySelector("select[data-item='" + CSS.escape(id) + "']").closest("li")); }).join(", ");
  }});
  function partText(el, given) {
    if (G.empty(given)) { return "no answer"; }
    return G.shape(el.dataset.shape).words(el, given);
  }
  function verdictOf(a, id) {
    if (!P.own(a.answers, id)) { return "unanswered"; }
    return a.right.indexOf(id) >= 0 ? "right" : "wrong";
  }
  var WORDS = {right: "Right.", wrong: "Not right.", unanswered: "Not answered (scored as wrong)."};
  function show(form, a, n) {
    var id = form.dataset.qid, verdict = verdictOf(a, id), flagged = a.flagged.indexOf(id) >= 0, box = form.querySelector(".mock-verdict");
    form.dataset.verdict = verdict;
    if (flagged) { form.dataset.flagged = ""; }
    form.querySelector(".mock-number").textContent = "Question " + n + " of " + a.questions.length + (flagged ? " · flagged" : "");
    if (verdict !== "unanswered") { P.showResponse(form, a.answers[id]); }
    box.textContent = "";
    var line = document.createElement("p"), parts = form.querySelectorAll("[data-part]");
    line.className = "verdict " + (verdict === "right" ? "right" : "wrong");
    line.textContent = WORDS[verdict] + (verdict === "unanswered" ? "" : " You answered " +
      Array.prototype.map.call(parts, function (el, i) { return partText(el, a.answers[id][i]); }).join("; ") + ".");
    box.appendChild(line);
  }
  function filter(a, asked) {
    var value = document.querySelector("input[name='mock-review-filter']:checked").value, shown = 0;
    P.each(list.querySelectorAll("form.question"), function (form) {
      var keep = asked.indexOf(form) >= 0 && (value === "all" || (value === "flagged" ? P.own(form.dataset, "flagged") : form.dataset.verdict === value));
      form.hidden = !keep;
      shown += keep ? 1 : 0;
    });
    $("mock-review-status").textContent = "Showing " + shown + " of " + a.questions.length + " questions.";
  }
  function start() {
    var a = attemptOf(P.store.load());
    if (!a) {
      P.each(list.querySelectorAll("form.question"), function (f) { f.hidden = true; });
      $("mock-review-missing").hidden = false;
      return;
    }
    var forms = {}, asked = [], counts = {all: a.questions.length, wrong: 0, unanswered: 0, flagged: 0}, right = 0;
    P.each(list.querySelectorAll("form.question"), function (f) {  // the variant asked, else the question's first form
      var id = f.dataset.qid, wanted = a.variants && P.own(a.variants, id) ? a.variants[id] : 1, v = P.variantOf(f);
      if (!forms[id] || v === wanted) { forms[id] = f; }
      f.hidden = true;
    });
    a.questions.forEach(function (id, i) {  // the attempt's order; a question no longer in these notes is left out
      if (!forms[id]) { return; }
      asked.push(forms[id]);
      list.appendChild(forms[id]);
      show(forms[id], a, i + 1);
      var v = forms[id].dataset.verdict;
      if (v === "right") { right += 1; } else { counts[v] += 1; }
      counts.flagged += a.flagged.indexOf(id) >= 0 ? 1 : 0;
    });
    P.each(document.querySelectorAll("[data-count]"), function (el) { el.textContent = "(" + counts[el.dataset.count] + ")"; });
    var pct = a.questions.length ? Math.round(100 * right / a.questions.length) : 0;
    $("mock-review-summary").textContent = "Attempt of " + a.started.slice(0, 10) + " (seed " + a.seed + "): " + right + " of " + a.questions.length +
      " right (" + pct + "%), " + (pct >= a.pass_mark ? "a pass" : "not a pass") + " at " + a.pass_mark + "%" + (a.timed_out ? "; time ran out." : ".");
    document.querySelector(".mock-review-tools").hidden = false;
    list.hidden = false;  // held until now: the answers of questions held out for mocks show only in an attempt's review
    P.each(document.querySelectorAll("input[name='mock-review-filter']"), function (r) { r.addEventListener("change", function () { filter(a, asked); }); });
    filter(a, asked);
  }
  start();
}());
