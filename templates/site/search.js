/* Search over terms, key points and questions, from window.SEARCH_INDEX (assets/search-index.js, built at build time).
   Hand-written rather than a vendored library: the index is a few hundred short entries, so a substring match of
   every query word over title and text finds what a learner types (partial words included) in well under a
   millisecond, in 40 lines with nothing to pin or update; lunr.js (unmaintained since 2020) or a stemmer would add
   size and ranking subtleties this scale does not need. */
(function () {
  "use strict";
  var INDEX = window.SEARCH_INDEX || [], LIMIT = 50;
  var input = document.getElementById("search-input");
  if (!input) { return; }
  var status = document.getElementById("search-status"), list = document.getElementById("search-results");
  var entries = INDEX.map(function (e) {
    return {entry: e, title: e.title.toLowerCase(), text: (e.title + " " + e.text).toLowerCase()};
  });

  function matches(words) {
    var found = entries.filter(function (e) { return words.every(function (w) { return e.text.indexOf(w) >= 0; }); });
    var inTitle = function (e) { return words.every(function (w) { return e.title.indexOf(w) >= 0; }) ? 0 : 1; };
    return found.map(function (e, i) { return [inTitle(e), i, e.entry]; })
      .sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; })
      .map(function (r) { return r[2]; });
  }

  function show(entry) {
    var li = document.createElement("li"), a = document.createElement("a"), p = document.createElement("p");
    a.href = entry.url;
    a.textContent = entry.kind + ": " + entry.title;
    p.textContent = entry.text;
    li.appendChild(a);
    li.appendChild(p);
    list.appendChild(li);
  }

  function run() {
    var query = input.value.trim(), words = query.toLowerCase().split(/\s+/).filter(Boolean);
    list.textContent = "";
    if (!words.length) { status.textContent = ""; return; }
    var found = matches(words);
    found.slice(0, LIMIT).forEach(show);
    status.textContent = found.length + (found.length === 1 ? " result" : " results") + " for “" + query + "”" +
      (found.length > LIMIT ? ", the first " + LIMIT + " shown." : ".");
  }

  input.form.hidden = false;
  input.form.addEventListener("submit", function (event) { event.preventDefault(); run(); });
  input.addEventListener("input", run);
  input.value = new URLSearchParams(window.location.search).get("q") || "";
  run();
}());
