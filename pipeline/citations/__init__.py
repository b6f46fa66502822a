"""Citations: is every quote really on the page it cites, today?

The modules, in the order a check runs through them:

- `fetch` gets each cited page once, politely (`polite`), through an HTTP client with retries, caps and
  a conditional-request cache (`http`, `cache`), and turns it into visible text (`pagetext`);
- `normalize` and `match` decide, as pure functions on strings, whether a quote stands on that text;
- `verdict` names the outcome (found, drifted, missing, dead, blocked, unreachable, unsupported);
- then the audit heals and tells: `moves` (permanent redirects: moved; `fixmoves` rewrites the source),
  `archive` (a Wayback snapshot holding the quote: archived), `passage` (the text around a found quote
  changed since review);
- `audit` runs all of it over the sources; `pipeline.citations.lock` records the results for offline builds, and
  `lockcheck` turns the lock into diagnostics for `validate` and `build`;
- `worddiff` and `newonly` (which problems the committed lock did not know) feed what `pipeline.findings`
  tells authors and CI (the report, the summary, and the blast radius of each citation not found).
"""
