"""The documentation's reference pages, generated from the code that defines what they list.

`python -m docsgen` (`make docs-ref`) writes docs/reference/*.md; tests/test_docs_reference.py fails when a
committed page differs from what the code says now, so a page is never edited by hand and never drifts.
"""
