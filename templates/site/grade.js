/* Grading, as data: applies the rules pipeline/shapes/grading.py writes into the exam data (EXAM_DATA.grading
   for the shared steps, each question's parts for its own rule). This file holds no rule of its own: the
   normalisation steps, the number pattern and each part's answer all come from the build, and
   tests/test_grading.py runs one table of answers through this and through the Python interpreter of the
   same data, requiring the same verdicts. Exposes window.ExamGrade. */
(function (root) {
  "use strict";

  function apply(step, text) {
    switch (step.op) {
      case "nfkc": return text.normalize("NFKC");
      case "fold": return text.toUpperCase().toLowerCase();
      case "replace": return text.replace(new RegExp(step.pattern, "gu"), step["with"]);
      case "map": return text.replace(new RegExp(step.pattern, "gu"), function (found) { return step.table[found]; });
      case "drop_category": return text.replace(new RegExp("\\p{" + step.category + "}", "gu"), "");
      case "join": return text.replace(/(?<=[\p{L}\p{N}]) (?=[\p{L}\p{N}])/gu, "");
      case "trim": return text.replace(/^ +| +$/g, "");
      default: throw new Error("unknown normalisation step " + step.op);
    }
  }

  function normalise(text, steps) {
    return steps.reduce(function (value, step) { return apply(step, value); }, String(text));
  }

  /* What a typed answer is compared by: normalised, then its equivalent forms made one ("a hyper-parameter",
     "hyperparameters" and "hyperparameter" alike). */
  function answerKey(text, shared) { return normalise(normalise(text, shared.normalise), shared.equivalent); }
  function unitKey(text, shared) { return normalise(normalise(normalise(text, shared.normalise), shared.unit), shared.equivalent); }

  function parseNumber(text, units, shared) {
    var match = new RegExp(shared.number, "u").exec(normalise(text, shared.numberPrepare));
    if (!match || !/[0-9]/.test(match[1])) { return null; }
    var rest = match[2];
    if (rest && units.indexOf(unitKey(rest, shared)) < 0) { return null; }
    return Number(match[1].replace(/[, ]/g, "").replace("\u2212", "-"));
  }

  function empty(response) {
    if (response === null || response === undefined || response === "") { return true; }
    if (Array.isArray(response)) { return response.length === 0; }
    return typeof response === "object" && Object.keys(response).length === 0;
  }

  function verdict(score, right) { return {score: score, right: right}; }

  function choices(rule, chosen) {
    var correct = rule.correct, picked = {}, rightCount = 0, wrongCount = 0;
    chosen.forEach(function (id) { picked[id] = true; });
    Object.keys(picked).forEach(function (id) { if (correct.indexOf(id) >= 0) { rightCount += 1; } else { wrongCount += 1; } });
    var exact = rightCount === correct.length && wrongCount === 0;
    if (!rule.multiple) { return verdict(exact ? 1 : 0, exact); }
    var wrongOptions = rule.options.length - correct.length;
    // one integer fraction, one division: the same float as the Python side
    var score = wrongOptions ? (rightCount * wrongOptions - wrongCount * correct.length) / (correct.length * wrongOptions)
                             : rightCount / correct.length;
    return verdict(Math.max(0, score), exact);
  }

  function text(rule, response, shared) {
    if (!rule.accepted.length) { return verdict(0, null); }
    var right = rule.accepted.indexOf(answerKey(response, shared)) >= 0;
    return verdict(right ? 1 : 0, right);
  }

  /* The site's shape registry: shape name -> {grade, read, show, words}. The five built-in shapes' graders
     are here; site.js adds their form readers, mock-review.js their words; a shape of its own folder
     (pipeline/shapes/<name>/site.js) registers all four. An unknown shape is an error, never a fallback. */
  var SHAPES = {
    choices: {grade: choices},
    text: {grade: text},
    pairs: {grade: function (rule, response) {
      var ids = Object.keys(rule.pairs), matched = ids.filter(function (p) { return response[p] === rule.pairs[p]; }).length;
      return verdict(matched / ids.length, matched === ids.length);
    }},
    sequence: {grade: function (rule, response) {
      var inPlace = response.length === rule.order.length && response.every(function (id, i) { return id === rule.order[i]; });
      return verdict(inPlace ? 1 : 0, inPlace);
    }},
    numeric: {grade: function (rule, response, shared) {
      var number = parseNumber(response, rule.units, shared);
      var within = number !== null && rule.low <= number && number <= rule.high;
      return verdict(within ? 1 : 0, within);
    }}
  };
  function register(name, parts) {
    var own = Object.prototype.hasOwnProperty.call(SHAPES, name) ? SHAPES[name] : (SHAPES[name] = {});
    Object.keys(parts).forEach(function (key) { own[key] = parts[key]; });
  }
  function shape(name) {
    if (!Object.prototype.hasOwnProperty.call(SHAPES, name)) { throw new Error("unknown shape " + name); }
    return SHAPES[name];
  }

  /* Score `response` against one part's rule; `shared` is EXAM_DATA.grading. right is null when nothing is
     given yet or a person must judge (a written answer with no accepted answers). */
  function grade(rule, response, shared) {
    var own = shape(rule.shape);
    if (empty(response)) { return verdict(0, null); }
    return own.grade(rule, response, shared);
  }

  root.ExamGrade = {grade: grade, normalise: normalise, answerKey: answerKey, parseNumber: parseNumber, register: register,
                    shape: shape, verdict: verdict, empty: empty, text: text};
}(window));
