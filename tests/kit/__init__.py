"""Shared test helpers, one module per idea: test modules import from here, never from each other.

- `pdf`: the study guide rendered for real and read back with pypdf;
- `sample`: the frozen sample exam (tests/fixtures/full) and edits to a copy of its YAML;
- `anki`: a deck imported into a real Anki collection;
- `moodle`: what Moodle's XML importer would refuse in a quiz file;
- `mock`: the mock exam's held-out questions and cited facts in fixture sources;
- `project`: a copy of the project as a fresh clone has it;
- `progress`: the practice site built once and its progress in the browser's storage;
- `browser`: the one Playwright a pytest process starts (conftest's `browser` fixture);
- `reach`: a report plugin, the modules of pipeline/ the selected tests never call into.
"""
