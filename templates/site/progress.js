/* The progress page: export the progress as JSON (the published schema), the review log as CSV for the FSRS
   optimizer and the answers as CSV for item statistics; import a JSON export (store.js keeps what still matches);
   totals. Files are made in the page (a Blob and a download link): nothing leaves the browser otherwise. */
(function () {
  "use strict";
  var P = window.ExamPrep, DATA = window.EXAM_DATA;
  var tools = document.querySelector(".progress-tools");
  if (!P || !P.refresh || !tools) { return; }
  var $ = function (id) { return document.getElementById(id); };
  var MAX_BYTES = 20 * 1024 * 1024;  // a progress file of years of daily reviews stays far below this

  function download(name, text, type) {
    var url = URL.createObjectURL(new Blob([text], {type: type})), a = document.createElement("a");
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    window.setTimeout(function () { URL.revokeObjectURL(url); }, 0);
  }
  function stamp() { return P.localDay(P.now()); }
  function totals() {
    var doc = P.store.load(), cards = Object.keys(doc.cards).length;
    var mocks = doc.mocks.filter(function (m) { return m.finished; }).length;
    $("progress-totals").textContent = cards + " of " + DATA.order.length + " questions started · " + doc.log.length + " review" + (doc.log.length === 1 ? "" : "s") +
      " · " + mocks + " mock exam attempt" + (mocks === 1 ? "" : "s") + " · desired retention " + Math.round(doc.settings.retention * 100) + "%.";
  }
  function importFile() {
    var file = $("import-file").files[0], status = $("import-status");
    if (!file) { return; }
    if (file.size > MAX_BYTES) { status.textContent = "Not imported: the file is larger than 20 MB, too large for a progress export."; return; }
    var reader = new FileReader();
    reader.onload = function () {
      try {
        var result = P.store.importText(String(reader.result)), r = result.report;
        P.store.save(result.doc);
        status.textContent = "Imported " + file.name + ": " + r.kept + " question" + (r.kept === 1 ? "" : "s") + " kept" +
          (r.changed.length ? "; " + r.changed.length + " changed since, starting over: " + r.changed.join(", ") : "") +
          (r.gone.length ? "; " + r.gone.length + " no longer here, dropped: " + r.gone.join(", ") : "") + ".";
      } catch (e) {
        status.textContent = "Not imported: " + e.message;
      }
      $("import-file").value = "";
      totals();
      P.refresh();
    };
    reader.onerror = function () { status.textContent = "Not imported: the file could not be read."; };
    reader.readAsText(file);
  }

  $("export-json").addEventListener("click", function () {
    download(DATA.exam + "-progress-" + stamp() + ".json", P.store.exportText(P.store.load(), P.now()), "application/json");
  });
  $("export-log").addEventListener("click", function () {
    download(DATA.exam + "-review-log-" + stamp() + ".csv", P.store.reviewLogCsv(P.store.load()), "text/csv");
  });
  $("export-responses").addEventListener("click", function () {
    download(DATA.exam + "-answers-" + stamp() + ".csv", P.store.responsesCsv(P.store.load()), "text/csv");
  });
  $("import-file").addEventListener("change", importFile);
  document.querySelector(".progress-tools .reset").addEventListener("click", totals);
  tools.hidden = false;
  totals();
}());
