/* A progress file checked against the published progress schema (assets/progress-schema.js, the same schema as
   assets/progress.schema.json, generated from schema/progress.py) before anything of it is stored: an import of a
   file whose `mocks` is not a list, or whose card state is garbage, would make every page throw until Reset.
   Only the keywords that schema uses are read (type, properties, required, additionalProperties, items, anyOf,
   enum, const, minimum, maximum, pattern, format date / date-time, $ref); an unknown keyword is an error, so a
   schema that grows one cannot be half-checked without notice. The first problem is named by its place
   ("cards.1.1-q1.fsrs.due: expected a date and time"). */
(function () {
  "use strict";
  var P = window.ExamPrep = window.ExamPrep || {};
  var KNOWN = ["type", "properties", "required", "additionalProperties", "items", "anyOf", "enum", "const", "minimum", "maximum",
               "pattern", "format", "$ref", "$defs", "$id", "$schema", "title", "description", "default"];
  var DATE = /^\d{4}-\d{2}-\d{2}$/, TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
  var MAX_DEPTH = 32;

  function kind(value) {
    if (value === null) { return "null"; }
    if (Array.isArray(value)) { return "array"; }
    return typeof value;
  }
  function fits(type, value) {
    var k = kind(value);
    if (type === "integer") { return k === "number" && Number.isInteger(value); }
    if (type === "number") { return k === "number" && isFinite(value); }
    return k === type;
  }
  function words(type) { return {object: "an object", array: "a list", string: "text", integer: "a whole number", number: "a number", boolean: "true or false", "null": "null"}[type] || type; }
  function own(map, key) { return Object.prototype.hasOwnProperty.call(map, key); }
  function place(path) { return path.length ? path.join(".") : "the file"; }

  /* The first problem of `value` against `schema` (within `root` for $ref), as a sentence; null when it fits. */
  function problem(root, schema, value, path) {
    if (path.length > MAX_DEPTH) { return place(path) + ": nested too deeply"; }
    var unknown = Object.keys(schema).filter(function (k) { return KNOWN.indexOf(k) < 0; });
    if (unknown.length) { return "the schema uses " + unknown.join(", ") + ", which this site cannot check"; }
    if (schema.$ref) { return problem(root, resolve(root, schema.$ref), value, path); }
    if (schema.anyOf) {
      var all = schema.anyOf.map(function (s) { return problem(root, s, value, path); });
      if (all.indexOf(null) >= 0) { return null; }
      var sameKind = schema.anyOf.map(function (s) { return target(root, s); })
        .map(function (s, i) { return s.type && fits(s.type, value) ? all[i] : null; }).filter(Boolean);
      return sameKind[0] || place(path) + ": expected " + schema.anyOf.map(function (s) { return describe(root, s); }).join(" or ");
    }
    if (schema.type && !fits(schema.type, value)) { return place(path) + ": expected " + words(schema.type) + ", not " + words(kind(value)); }
    if (own(schema, "const") && value !== schema["const"]) { return place(path) + ": expected " + JSON.stringify(schema["const"]); }
    if (schema["enum"] && schema["enum"].indexOf(value) < 0) { return place(path) + ": expected one of " + schema["enum"].map(function (e) { return JSON.stringify(e); }).join(", "); }
    if (own(schema, "minimum") && value < schema.minimum) { return place(path) + ": expected at least " + schema.minimum; }
    if (own(schema, "maximum") && value > schema.maximum) { return place(path) + ": expected at most " + schema.maximum; }
    if (schema.pattern && !new RegExp(schema.pattern).test(value)) { return place(path) + ": not of the form " + schema.pattern; }
    if (schema.format === "date" && !(DATE.test(value) && !isNaN(Date.parse(value)))) { return place(path) + ": expected a date (YYYY-MM-DD)"; }
    if (schema.format === "date-time" && !(TIME.test(value) && !isNaN(Date.parse(value)))) { return place(path) + ": expected a date and time (ISO 8601)"; }
    if (kind(value) === "array" && schema.items) {
      for (var i = 0; i < value.length; i += 1) {
        var inItem = problem(root, schema.items, value[i], path.concat([i]));
        if (inItem) { return inItem; }
      }
    }
    if (kind(value) === "object") { return objectProblem(root, schema, value, path); }
    return null;
  }
  function objectProblem(root, schema, value, path) {
    var properties = schema.properties || {}, keys = Object.keys(value);
    var missing = (schema.required || []).filter(function (k) { return !own(value, k); });
    if (missing.length) { return place(path) + ": " + missing.join(", ") + " missing"; }
    for (var i = 0; i < keys.length; i += 1) {
      var key = keys[i], inner = own(properties, key) ? properties[key] : schema.additionalProperties;
      if (inner === false) { return place(path.concat([key])) + ": not a field of a progress file"; }
      var found = inner && inner !== true ? problem(root, inner, value[key], path.concat([key])) : null;
      if (found) { return found; }
    }
    return null;
  }
  function resolve(root, ref) {
    var parts = ref.replace(/^#\//, "").split("/"), at = root;
    parts.forEach(function (p) { at = at && own(at, p) ? at[p] : null; });
    if (!at) { throw new Error("the progress schema has no " + ref); }
    return at;
  }
  function target(root, schema) { return schema.$ref ? target(root, resolve(root, schema.$ref)) : schema; }
  function describe(root, schema) {
    var s = target(root, schema);
    return s.type ? words(s.type) : "a value of another form";
  }

  /* Why `doc` is not a progress file of the published schema, or null when it is one. */
  P.progressProblem = function (doc) {
    var schema = window.PROGRESS_SCHEMA;
    if (!schema) { return "this page lacks the progress schema (assets/progress-schema.js)"; }
    return problem(schema, schema, doc, []);
  };
}());
