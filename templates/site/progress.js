/* The progress page: export the progress as JSON (the published schema), the review log as CSV for the FSRS
   optimizer and the answers as CSV for item statistics; import a JSON export, after showing what it would change
   (merge.js: card by card, the later one kept) and asking; totals. */
(function () {
  "use strict";
  var P = window.ExamPrep, DATA = window.EXAM_DATA;
  var tools = document.querySelector(".progress-tools");
  if (!P || !P.refresh || !P.merge || !tools) { return; }
  var $ = function (id) { return document.getElementById(id); };
  var MAX_BYTES = 20 * 1024 * 1024;  // a progress file of years of daily reviews stays far below this
  var pending = null;  // the import shown and not yet confirmed: {name, doc, lines}

  function stamp() { return P.localDay(P.now()); }
  function totals() {
    var doc = P.store.load(), cards = Object.keys(doc.cards).length;
    var mocks = doc.mocks.filter(function (m) { return m.finished; }).length;
    $("progress-totals").textContent = cards + " of " + DATA.order.length + " questions started · " + doc.log.length + " review" + (doc.log.length === 1 ? "" : "s") +
      " · " + mocks + " mock exam attempt" + (mocks === 1 ? "" : "s") + " · desired retention " + Math.round(doc.settings.retention * 100) + "%.";
  }

  /* The plan in lines a learner reads: what is added, replaced, kept because newer here, kept as it is, lost. */
  function planLines(fitted, merged) {
    var r = merged.report, f = fitted.report, lines = [];
    function line(ids, text) { if (ids.length) { lines.push(P.plural(ids.length, "question") + " " + text + ": " + ids.join(", ") + "."); } }
    line(r.added, "not in this browser, taken from the file");
    line(r.replaced, "answered later in the file than here, taken from the file");
    line(r.newer, "answered later in this browser than in the file, kept as they are here");
    if (r.kept.length) { lines.push(P.plural(r.kept.length, "question") + " kept as " + (r.kept.length === 1 ? "it is" : "they are") + " (the same in the file, or only in this browser)."); }
    line(f.changed, "changed in these notes since the file's answers: the file's answers to them left out");
    line(f.gone, "in the file but no longer in these notes, left out");
    if (!r.added.length && !r.replaced.length) { lines.push("Nothing in this browser would be replaced."); }
    return lines;
  }
  function showPlan(name, text) {
    var fitted = P.store.importText(text), merged = P.merge.plan(P.store.load(), fitted.doc);
    var full = P.store.overQuota(merged.doc);  // refused before anything is written (it used to say Imported, storing nothing)
    if (full) { throw new Error(full + "; nothing was changed."); }
    pending = {name: name, doc: merged.doc, report: merged.report};
    var list = $("import-plan-list");
    list.textContent = "";
    planLines(fitted, merged).forEach(function (t) { var li = document.createElement("li"); li.textContent = t; list.appendChild(li); });
    $("import-plan-heading").textContent = "What importing " + name + " would change";
    document.querySelector(".import-plan").hidden = false;
    $("import-plan-heading").focus();
  }
  function closePlan(message) {
    pending = null;
    document.querySelector(".import-plan").hidden = true;
    $("import-file").value = "";
    $("import-status").textContent = message;
  }
  function confirmImport() {
    if (!pending) { return; }
    var r = pending.report;
    if (!P.store.save(pending.doc)) { closePlan("Not imported: the browser refused to store it (its storage is full or turned off); nothing was changed."); return; }
    closePlan("Imported " + pending.name + ": " + P.plural(r.added.length + r.replaced.length, "question") + " taken from the file, " +
              (r.newer.length + r.kept.length) + " kept from this browser.");
    totals();
    P.refresh();
  }
  function importFile() {
    var file = $("import-file").files[0], status = $("import-status");
    if (!file) { return; }
    if (file.size > MAX_BYTES) { status.textContent = "Not imported: the file is larger than 20 MB, too large for a progress export."; return; }
    var reader = new FileReader();
    reader.onload = function () {
      try {
        status.textContent = "";
        showPlan(file.name, String(reader.result));
      } catch (e) {
        closePlan("Not imported: " + e.message);
      }
    };
    reader.onerror = function () { closePlan("Not imported: the file could not be read."); };
    reader.readAsText(file);
  }

  $("export-json").addEventListener("click", P.exportProgress);
  $("export-log").addEventListener("click", function () {
    P.download(DATA.exam + "-review-log-" + stamp() + ".csv", P.store.reviewLogCsv(P.store.load()), "text/csv");
  });
  $("export-responses").addEventListener("click", function () {
    P.download(DATA.exam + "-answers-" + stamp() + ".csv", P.store.responsesCsv(P.store.load()), "text/csv");
  });
  $("import-file").addEventListener("change", importFile);
  $("import-confirm").addEventListener("click", confirmImport);
  $("import-cancel").addEventListener("click", function () { closePlan("Not imported: cancelled; nothing changed."); });
  document.addEventListener("exam-prep:reset", totals);
  tools.hidden = false;
  totals();
}());
