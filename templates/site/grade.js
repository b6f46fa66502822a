/* Grading, in one function: ExamPrep.grade(questionData, response) -> "right" | "wrong" | "incomplete" | "self".
   questionData is a question's `grade` entry of window.EXAM_DATA; response is what responseOf() read from its
   form: option ids (choices), text (short answers), {pair id: answer id} (matching), {item id: place} (ordering).
   "self": a short answer with only a model answer, which the learner marks after seeing it.

   TEMPORARY ADAPTER: these are the rules site.js's mark() applied, moved here unchanged, so that every caller
   (practice, review, mock) already goes through the one function that issue 20 replaces with grading defined
   once in Python and shipped as data. Do not add answer normalisation here: it belongs to that module. */
(function () {
  "use strict";
  var P = window.ExamPrep = window.ExamPrep || {};

  function normalise(text) {
    return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
  }
  function sameSet(a, b) {
    return a.length === b.length && a.slice().sort().join("\n") === b.slice().sort().join("\n");
  }
  function everyKey(keys, response, right) {
    if (!response || keys.some(function (k) { return !Object.prototype.hasOwnProperty.call(response, k) || !response[k]; })) { return "incomplete"; }
    return keys.every(function (k) { return right(k, response[k]); }) ? "right" : "wrong";
  }

  P.grade = function (q, response) {
    if (q.type === "short_answer") {
      if (q.self) { return "self"; }
      var text = normalise(typeof response === "string" ? response : "");
      if (!text) { return "incomplete"; }
      return q.accepted.map(normalise).indexOf(text) >= 0 ? "right" : "wrong";
    }
    if (q.type === "matching") {
      return everyKey(Object.keys(q.pairs), response, function (k, v) { return q.pairs[k] === v; });
    }
    if (q.type === "ordering") {
      return everyKey(q.order, response, function (k, v) { return String(q.order.indexOf(k) + 1) === String(v); });
    }
    if (!Array.isArray(response) || !response.length) { return "incomplete"; }
    return sameSet(response, q.correct) ? "right" : "wrong";
  };
}());
