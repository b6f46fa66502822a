/* The cloze shape on the study site (pipeline/shapes/cloze/): registers with grade.js's shape registry how to
   read its gaps from the form, put a saved answer back, say it in words, and grade it: each gap's typed text,
   by the same answer key as a text part, against that gap's accepted answers; an equal share per gap (the
   same float as pipeline/shapes/cloze/__init__.py's grade). Loaded after grade.js, before site.js. */
(function () {
  "use strict";
  var G = window.ExamGrade;
  if (!G) { return; }
  function inputs(el) { return Array.prototype.slice.call(el.querySelectorAll("input[data-gap]")); }
  G.register("cloze", {
    grade: function (rule, response, shared) {
      var matched = rule.gaps.filter(function (accepted, i) {
        return accepted.indexOf(G.answerKey(String(response[i] === undefined || response[i] === null ? "" : response[i]), shared)) >= 0;
      }).length;
      return G.verdict(matched / rule.gaps.length, matched === rule.gaps.length);
    },
    // every gap filled, or no answer yet (as a matching part with a prompt left unchosen)
    read: function (el) {
      var given = inputs(el).map(function (input) { return input.value; });
      return given.some(function (value) { return !value.trim(); }) ? null : given;
    },
    show: function (el, given) { inputs(el).forEach(function (input, i) { input.value = given[i] === undefined ? "" : String(given[i]); }); },
    words: function (el, given) { return given.map(function (value, i) { return (i + 1) + ": “" + String(value) + "”"; }).join(", "); }
  });
}());
