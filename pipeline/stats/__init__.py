"""Item statistics from learners' answers: the `stats` stage.

Reads response exports (Moodle's quiz Responses and Statistics downloads, Canvas's item and student
analysis CSVs, the plain long format the study site exports), maps every row back to a question of the
exam view (or reports it unmatched, with the reason), computes classical test theory per item and per
test (and a 2PL IRT fit when there are enough learners), and keeps the result in the committed
`sources/<exam>/item-stats.json` with a content hash of each item as answered. `validate` reads that
file back (`pipeline.stats.lockcheck`, handed to `validate` as a judge by the CLI: this stage sits above
the checks) and warns at the question's line.

Modules: `engine` (the DuckDB connection), `intake` (every file into the engine's long table: the long layout
as CSV, Parquet or JSON Lines, gzip too, read by the engine; the LMS exports by their parsers), `columnar`
(first attempts and classical test theory as SQL sums), `csvfile` and `csvstream` (bounded CSV reading,
whole or record by record), `formats/` (one parser per export, `detect` picks one from the header), `match`
(rows to question and option ids), `grading`, `ctt` and `attempts` (the definitions, and the in-memory
reference the engine is tested against), `irt`, `variants` (a varied question's variants pooled, and the
chi-square across them), `itemhash`, `store` (the JSON file), `judge` (thresholds:
`pipeline.check.thresholds`), `lockcheck`, `report` and `figures`, `run` (the command).
"""
