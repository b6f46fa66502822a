/* exam-prep serve: reload the page when a rebuild finishes, show a build's errors in a banner.
   Injected by `serve` into the pages it serves, never into the built site. It loads from the server's
   own origin, so the site's Content-Security-Policy (script-src 'self') allows it; serve adds only
   connect-src 'self' to the served copy, for the event stream. */
(function () {
  "use strict";
  var script = document.currentScript;
  var loaded = Number(script && script.dataset.build) || 0;

  function banner() {
    var box = document.getElementById("serve-banner");
    if (!box) {
      box = document.createElement("section");
      box.id = "serve-banner";
      box.setAttribute("role", "alert");
      box.setAttribute("aria-label", "Build problems");
      document.body.insertBefore(box, document.body.firstChild);
    }
    return box;
  }

  function show(state) {
    var old = document.getElementById("serve-banner");
    if (state.ok) {
      if (old) old.remove();
      return;
    }
    var box = banner();
    box.textContent = "";
    var title = document.createElement("h2");
    title.textContent = state.title;
    var lines = document.createElement("pre");
    lines.textContent = state.problems.join("\n");  // text, never markup: messages quote the sources
    var note = document.createElement("p");
    note.textContent = "The page shows the last good build; it reloads when the sources build again.";
    box.append(title, lines, note);
  }

  function status() {
    fetch("/__serve/status", {cache: "no-store"}).then(function (r) { return r.json(); }).then(function (state) {
      if (state.ok && state.build > loaded) { location.reload(); return; }
      show(state);
    }).catch(function () {});
  }

  var events = new EventSource("/__serve/events?since=" + loaded);
  events.addEventListener("reload", function () { location.reload(); });
  events.addEventListener("problems", function (event) { show(JSON.parse(event.data)); });
  events.addEventListener("open", status);  // also after the server comes back: catch up on what was missed
})();
