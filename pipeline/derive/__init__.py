"""Derive the exam view: an exam's inputs (validated content, the locks, the date) -> one read-only `ExamView` per exam and build.

This is the one stage that puts the citation lock, the date and the generated questions together (all handed in), so
that `pipeline.view` (the view's shapes) can stay plain data that every renderer imports without loading
YAML, locks, the clock or the network (tests/test_architecture.py checks it).
"""

from pipeline.derive.build import build_view

__all__ = ["build_view"]
