"""`serve`: build an exam's site, serve it on 127.0.0.1, watch the sources and templates, rebuild what
changed and reload open pages; a failed build shows its errors in the terminal and in a banner on the
page, while the last good site stays up.

- `status`: the last build's outcome, shared by the watcher and the server, with a condition to wait on;
- `inject`: the live-reload script and style, added to each page as it is served (never to the built site);
- `server`: the HTTP server (pages, the event stream, the status, the guide built on demand);
- `watch`: watchfiles over the sources, the templates and pipeline.toml;
- `session`: one build of the chosen outputs, its problems kept for the page.
"""
